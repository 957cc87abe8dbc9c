/**
 * The lifecycle shape every long-running part of the daemon shares: `run()` does the work and
 * resolves once the service has stopped; `stop()` asks it to stop, lets the work in hand finish
 * (a transaction is never cut in half), and resolves when it has.
 */
export interface Service {
  readonly id: string
  run(): Promise<void>
  stop(): Promise<void>
}
