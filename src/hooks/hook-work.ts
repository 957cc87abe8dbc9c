import {
  describeKept,
  isLastingFailure,
  type WorkKind,
  type WorkSession,
  type WorkStep,
} from '../hook-work/services/kept-work.ts'
import { keepWork } from '../hook-work/services/work-journal.ts'

/** What a hook kept for afterwards, for its answer. */
export interface KeptNote {
  readonly kind: WorkKind
  /** `the auto-lease of this edit's file (database is locked)`. */
  readonly text: string
}

/** One planned step, as its handler sees it. */
export interface StepHandle {
  /** Done (or found not needed): nothing to keep. */
  done(): void
  /** Not done: kept in the journal for afterwards (once, whoever asks first). */
  keep(why: string): void
  /** Not done because of `error`: kept, unless the failure is one that lasts (`isLastingFailure`); true when kept. */
  fail(error: unknown): boolean
}

type StepState = 'open' | 'done' | 'kept' | 'dropped'

/**
 * The work one agent hook run owes, tracked so that none of it is lost when the hook gives up.
 * Once the hook knows its event, project and session it plans its steps (the auto-lease of an
 * edit, the session's presence, …); each handler then says each step is done, or keeps it, with
 * why, in the project's journal (hook-work/services/) for the daemon or a later hook. The watchdog
 * keeps every step still open when the budget runs out, before the process ends, so a step in
 * flight (an auto-lease waiting for the team server) is kept too: doing it again later is safe,
 * since each step is idempotent. A budget spent before the steps were even planned (the process
 * starved before it read its input) marks the run `spent`: its steps are then kept as soon as
 * they are planned, and none is started.
 */
export class HookWork {
  readonly #at: number
  readonly #pid: number
  #journal: { readonly dir: string; readonly event: string; readonly session: WorkSession } | null = null
  readonly #steps = new Map<WorkKind, { readonly step: WorkStep; state: StepState }>()
  readonly #kept: KeptNote[] = []
  #spent = false

  /** `at`: when the hook ran; the time every step belongs to. */
  constructor(at: number, pid: number) {
    this.#at = at
    this.#pid = pid
  }

  /** Whether steps can be planned yet (the project and the session are known). */
  get begun(): boolean {
    return this.#journal !== null
  }

  get spent(): boolean {
    return this.#spent
  }

  /** The budget ran out before the work began: from now on steps are kept, not done. */
  spend(): void {
    this.#spent = true
  }

  begin(dir: string, event: string, session: WorkSession): void {
    this.#journal = { dir, event, session }
  }

  plan(step: WorkStep): StepHandle {
    this.#steps.set(step.kind, { step, state: 'open' })
    return this.handle(step.kind)
  }

  /** The handle of a planned step; one that does nothing when the step was not planned. */
  handle(kind: WorkKind): StepHandle {
    return {
      done: () => {
        const planned = this.#steps.get(kind)
        if (planned?.state === 'open') planned.state = 'done'
      },
      keep: (why) => this.#keep(kind, why),
      fail: (error) => this.#fail(kind, error),
    }
  }

  /** Keeps every step still open (the budget ran out); returns all kept. */
  keepOpen(why: string): readonly KeptNote[] {
    for (const [kind, planned] of this.#steps) if (planned.state === 'open') this.#keep(kind, why)
    return this.kept()
  }

  /** Every step still open failed with `error` (the handler threw). */
  failOpen(error: unknown): void {
    for (const [kind, planned] of this.#steps) if (planned.state === 'open') this.#fail(kind, error)
  }

  kept(): readonly KeptNote[] {
    return [...this.#kept]
  }

  #fail(kind: WorkKind, error: unknown): boolean {
    const planned = this.#steps.get(kind)
    if (planned?.state !== 'open') return planned?.state === 'kept'
    if (isLastingFailure(error)) {
      planned.state = 'dropped'
      return false
    }
    this.#keep(kind, messageOf(error))
    return true
  }

  #keep(kind: WorkKind, why: string): void {
    const planned = this.#steps.get(kind)
    const journal = this.#journal
    if (planned === undefined || planned.state !== 'open' || journal === null) return
    planned.state = 'kept'
    const text = `${describeKept(planned.step)} (${why})`
    try {
      keepWork(
        journal.dir,
        {
          step: planned.step,
          session: journal.session,
          event: journal.event,
          at: this.#at,
          why,
          attempts: 0,
          notBefore: 0,
        },
        this.#pid,
      )
      this.#kept.push({ kind, text })
    } catch (error) {
      // Said rather than swallowed: this one is lost, and the answer must not claim otherwise.
      this.#kept.push({
        kind,
        text: `${text}, NOT kept: the journal cannot be written (${messageOf(error)})`,
      })
    }
  }
}

/**
 * A failure that trying again later would meet again: a store that is not a sangam database, a data
 * directory that cannot be opened. The hook's answer already says the store is unusable; what it
 * could not do waits for no one (D320). A busy store, a slow or unreachable server, a budget spent
 * pass: those steps are kept.
 */

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown error'
}
