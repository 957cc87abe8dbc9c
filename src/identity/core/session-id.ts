/** Session ids are UUIDs; eight characters tell them apart in practice and stay readable. */
export function shortSession(sessionId: string): string {
  return sessionId.length > 8 ? sessionId.slice(0, 8) : sessionId
}
