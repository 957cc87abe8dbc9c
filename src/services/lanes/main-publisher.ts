/** Moves `main` from `from` to `to`: the local ref, and with a team attached the shared remote's main, never blindly. */
export interface MainPublisher {
  publish(input: { from: string; to: string }): Promise<void>
}
