import type { ServerLockHolder, TeamMain } from '../../lanes/protocol/integration-lock.ts'
import type { IntegrationLock, LockAnswer } from '../../lanes/services/integration-lock.ts'
import type { TeamMainDesk } from '../../lanes/services/team-main-desk.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { SyncAnswer, SyncEndpoint, SyncHttpClient } from './http-client.ts'
import { refusalError } from './refusal.ts'
import { isUnreachable } from './unreachable.ts'

export interface ServerLockOptions {
  /** This machine (`config/machine-id.ts`): lanes of one name on two machines are two lanes. */
  readonly machine: string
  /** How long without a heartbeat before a takeover may end a tenure (`lanes.lock-stale-minutes`). */
  readonly staleAfterMs: number
  /** How long a request waits for the server before it is reported unconfirmed. */
  readonly timeoutMs?: number | undefined
  /**
   * Told every holder the server names (or null, free) with when: this machine keeps the last one
   * for the brief, which asks no server (D307).
   */
  readonly seen?: ((holder: (ServerLockHolder & { readonly elsewhere: boolean }) | null) => void) | undefined
  /** Another machine's readable name (room/services/machine-names.ts); its id when not given. */
  readonly machineLabel?: ((machine: string) => string) | undefined
}

/**
 * The integration lock while attached to a team server: the project's Durable Object holds it
 * (`server/src/lock-desk.ts`), so of the lanes of every machine exactly one holds it, under a
 * fencing token that grows with every grant. Heartbeats and releases name their tenure's token,
 * so a holder that was taken over can neither keep nor free its successor's lock. No answer is
 * never a grant: a request the server did not confirm throws UNCONFIRMED (exit 6), and a lock we
 * could not release stays held until its holder releases it or it goes stale.
 */
export class ServerIntegrationLock implements IntegrationLock, TeamMainDesk {
  readonly #endpoint: SyncEndpoint
  readonly #options: ServerLockOptions

  constructor(endpoint: SyncEndpoint, options: ServerLockOptions) {
    this.#endpoint = endpoint
    this.#options = options
  }

  async acquire(input: { lane: string; owner: string; task: string | null }): Promise<LockAnswer> {
    const answer = await this.#ask('lock request', (http) =>
      http.lockAcquire({ ...input, machine: this.#options.machine }),
    )
    this.#saw(answer.holder)
    return answer.granted
      ? { granted: true, holder: answer.holder }
      : { granted: false, holder: answer.holder }
  }

  async heartbeat(holder: { token: number; task: string | null }): Promise<boolean> {
    const answer = await this.#ask('heartbeat', (http) =>
      http.lockHeartbeat({ token: holder.token, task: holder.task }),
    )
    return answer.alive
  }

  async release(holder: { token: number }): Promise<void> {
    // Called after main moved as well as after a refusal, so it says nothing of main.
    await this.#ask('lock release', (http) => http.lockRelease({ token: holder.token }), {
      unconfirmed: `the team server may still hold the integration lock for this lane: run sangam sync again in it once the server is reachable (a lock nobody renews goes stale after ${Math.round(this.#options.staleAfterMs / 60_000)} min)`,
    })
  }

  async current(): Promise<ServerLockHolder | null> {
    const { holder } = await this.#ask('lock query', (http) => http.lock())
    this.#saw(holder)
    return holder === null ? null : this.#view(holder)
  }

  async read(): Promise<TeamMain | null> {
    const state = await this.#ask('lock query', (http) => http.lock())
    this.#saw(state.holder)
    return state.main
  }

  async publishing(input: { token: number; from: string | null; to: string }): Promise<boolean> {
    const answer = await this.#recordMain('record of where main is going', {
      kind: 'publishing',
      ...input,
    })
    return answer === null || answer.recorded
  }

  async published(input: { token: number; commit: string }): Promise<void> {
    await this.#recordMain('record of main', { kind: 'published', ...input })
  }

  async accept(input: {
    commit: string
    expected: string | null
    lane: string
    owner: string
  }): Promise<boolean> {
    const answer = await this.#recordMain('acceptance of main', {
      kind: 'accept',
      ...input,
      machine: this.#options.machine,
    })
    // Asked twice (a connection closed unanswered), the first may have taken: then it is ours.
    return answer !== null && (answer.recorded || answer.main?.commit === input.commit)
  }

  /** A record of main; null when the server keeps none (older than the team's main record). */
  async #recordMain(
    what: string,
    request: Parameters<SyncHttpClient['lockMain']>[0],
  ): Promise<{ recorded: boolean; main: TeamMain | null } | null> {
    try {
      return await this.#ask(what, (http) => http.lockMain(request), {
        unconfirmed: 'nothing was pushed; try again once the team server is reachable',
      })
    } catch (error) {
      if (error instanceof SangamError && error.wireCode === 'NOT_FOUND') return null
      throw error
    }
  }

  async takeOver(input: { lane: string; owner: string; reason: string }): Promise<ServerLockHolder> {
    const answer = await this.#ask('takeover', (http) =>
      http.lockTakeover({
        ...input,
        machine: this.#options.machine,
        staleAfterMs: this.#options.staleAfterMs,
      }),
    )
    if (answer.taken) return this.#view(answer.holder)
    const holder = this.#view(answer.holder)
    const minutes = Math.round(this.#options.staleAfterMs / 60_000)
    throw new SangamError(
      ErrorCode.LaneRefused,
      `the integration lock is held by lane ${holder.lane} of ${holder.owner}, which the team server heard from within the last ${minutes} min: it is not stale, so it was not taken over`,
      { holder },
      {
        wireCode: 'lock-not-stale',
        next: `ask ${holder.owner} to finish or release it (\`sangam sync\` in lane ${holder.lane}); a takeover is possible once it has been silent for ${minutes} min`,
      },
    )
  }

  #saw(holder: ServerLockHolder | null): void {
    this.#options.seen?.(
      holder === null ? null : { ...holder, elsewhere: holder.machine !== this.#options.machine },
    )
  }

  /**
   * A holder as the lanes of this machine see it: another machine's lane is named
   * `<lane>@<machine name>`, so a lane here of the same name never takes it for its own tenure.
   */
  #view(holder: ServerLockHolder): ServerLockHolder & { readonly elsewhere: boolean } {
    if (holder.machine === this.#options.machine) return { ...holder, elsewhere: false }
    const machine = this.#options.machineLabel?.(holder.machine) ?? holder.machine
    return { ...holder, lane: `${holder.lane}@${machine}`, elsewhere: true }
  }

  async #ask<T>(
    what: string,
    request: (http: SyncHttpClient) => Promise<SyncAnswer<T>>,
    said: { readonly unconfirmed: string } = {
      unconfirmed:
        'the integration lock is kept by the team server, which did not answer; nothing moved: try again once it is reachable',
    },
  ): Promise<T> {
    const { SyncHttpClient } = await import('./http-client.ts')
    const http = new SyncHttpClient(this.#endpoint, { timeoutMs: this.#options.timeoutMs ?? 10_000 })
    let answer: SyncAnswer<T>
    try {
      answer = await request(http)
    } catch (error) {
      if (!isUnreachable(error)) throw error
      throw new SangamError(
        ErrorCode.Unconfirmed,
        `${(error as Error).message}. The ${what} is unconfirmed: ${said.unconfirmed}`,
        { server: this.#endpoint.url },
        { cause: error },
      )
    }
    if (answer.ok) return answer.value
    throw refusalError(answer, { url: this.#endpoint.url, action: what, arbitrated: true })
  }
}
