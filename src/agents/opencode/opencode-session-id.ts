/**
 * `opencode run --format json` prints one JSON event per line, each naming its `sessionID`
 * (`ses_` and 26 characters): the new session's id, from the first one.
 */
export function opencodeSessionIdIn(output: string): string | null {
  const match = /"sessionID"\s*:\s*"(ses_[0-9A-Za-z]{8,})"/.exec(output)
  return match?.[1] ?? null
}
