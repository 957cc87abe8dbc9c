/** The agents of `sangam targets --json`, as the end-to-end tests and real-CLI scenarios read them. */
export interface TargetsJson {
  agents: { handle: string; vendor: string; sessionId: string; state: string }[]
}
