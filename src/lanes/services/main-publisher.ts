/** Moves `main` from `from` to `to`: the local ref, and with a team attached the shared remote's main, never blindly. */
export interface MainPublisher {
  /** `token`: the integration lock's tenure the publish runs under (a catch-up runs under none). */
  publish(input: { from: string; to: string; token?: number | undefined }): Promise<void>
}
