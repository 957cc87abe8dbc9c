import { isAbsolute, relative } from 'node:path'
// Types only: the hooks bundle this file, and must not load zod (test/hooks-startup.test.ts).
import type { AgentVendor } from '../../leases/protocol/lease.ts'
import type { StoredPresenceState } from '../../room/protocol/presence.ts'
import { isRecord } from '../../shared/is-record.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'

/**
 * One step of an agent hook's work that the hook could not finish within its time budget (a slow
 * team server, a store locked past its busy timeout, the watchdog ending the process), kept in
 * the project's journal (`work-journal.ts`) to be done afterwards by the daemon or the next hook
 * (`work-drain.ts`). Each step carries what doing it needs, so the drain does not depend on the
 * hook that kept it.
 */
export type WorkStep =
  /** The editor's auto-lease on the files of an allowed edit (locally, or on the team server). */
  | {
      readonly kind: 'auto-lease'
      /** The files as the tool named them, resolved against `cwd` and `worktrees` as the gate does. */
      readonly files: readonly string[]
      readonly cwd: string
      readonly worktrees: readonly string[]
    }
  /** The session's presence in the room; branch and machine are read when it is recorded. */
  | { readonly kind: 'presence'; readonly state: StoredPresenceState; readonly worktree: string }
  /** Where a Codex session under `sangam codex` can be woken. */
  | { readonly kind: 'codex-endpoint'; readonly endpoint: string; readonly launcherPid: number }
  /** The tmux pane a session runs in, for delivery. */
  | { readonly kind: 'pane'; readonly pane: string }
  /** SessionEnd's release of the session's leases. */
  | { readonly kind: 'release' }
  /** SessionStart's brief: owed to the session, given with its next prompt. */
  | { readonly kind: 'brief'; readonly cwd: string }

export type WorkKind = WorkStep['kind']

/** The protocol's stored states, spelled out here: its module loads zod, which the hooks must not. */
const presenceStates: readonly StoredPresenceState[] = ['online', 'idle', 'offline']

/** The session a step belongs to: every agent hook payload names one. */
export interface WorkSession {
  readonly human: string
  readonly vendor: AgentVendor
  readonly sessionId: string
}

export interface KeptWork {
  readonly step: WorkStep
  readonly session: WorkSession
  /** The hook event that owed it: `PreToolUse`, `SessionStart`, … */
  readonly event: string
  /** When that hook ran (ms epoch): the time the work belongs to. */
  readonly at: number
  /** Why the hook did not finish it. */
  readonly why: string
  /** Failed attempts to do it afterwards. */
  readonly attempts: number
  /** Not tried again before this (ms epoch). */
  readonly notBefore: number
}

/** What a kept step is, for the hook's answer and the logs. */
export function describeStep(step: WorkStep): string {
  switch (step.kind) {
    case 'auto-lease':
      return `the auto-lease of ${step.files.map((file) => shortPath(file, step.cwd)).join(', ')}`
    case 'presence':
      return `the session's presence (${step.state})`
    case 'codex-endpoint':
      return "the session's Codex endpoint"
    case 'pane':
      return "the session's tmux pane"
    case 'release':
      return "the release of the session's leases"
    case 'brief':
      return 'the session brief (it comes with the next prompt)'
  }
}

/**
 * A kept step as the hook's own answer names it: an auto-lease by its count, not its paths. The
 * answer reaches the agent's context and its host's screen, and the hook does not load the secret
 * scrubber to stay within its budget, so a file name holding a token would be repeated (D381); the
 * agent knows which file its edit was, and the daemon's log names them.
 */
export function describeKept(step: WorkStep): string {
  if (step.kind !== 'auto-lease') return describeStep(step)
  return step.files.length === 1
    ? "the auto-lease of this edit's file"
    : `the auto-lease of this edit's ${step.files.length} files`
}

/**
 * A failure that doing the step again cannot fix, so nothing is kept for afterwards: a store that
 * is not sangam's or cannot be written, and input refused as such (a path holding a secret, which
 * the server refuses: keeping it would write the secret into the journal and retry it forever).
 */
export function isLastingFailure(error: unknown): boolean {
  return (
    error instanceof SangamError &&
    (error.code === ErrorCode.StoreIncompatible ||
      error.code === ErrorCode.DataDirUnusable ||
      error.code === ErrorCode.InvalidInput)
  )
}

/** A path inside the session's directory, relative to it; any other as it was named. */
export function shortPath(file: string, cwd: string): string {
  if (!isAbsolute(file)) return file
  const inside = relative(cwd, file)
  return inside === '' || inside.startsWith('..') || isAbsolute(inside) ? file : inside
}

/** A journal file's content, narrowed; null when it is not one (a torn or foreign file). */
export function parseKeptWork(value: unknown): KeptWork | null {
  if (!isRecord(value)) return null
  const step = parseStep(value.step)
  const session = parseSession(value.session)
  const { event, at, why, attempts, notBefore } = value
  if (step === null || session === null || typeof event !== 'string' || typeof why !== 'string') return null
  if (!isNumber(at) || !isNumber(attempts) || !isNumber(notBefore)) return null
  return { step, session, event, at, why, attempts, notBefore }
}

function parseSession(value: unknown): WorkSession | null {
  if (!isRecord(value)) return null
  const { human, vendor, sessionId } = value
  if (typeof human !== 'string' || human === '' || typeof sessionId !== 'string' || sessionId === '')
    return null
  return vendor === 'claude' || vendor === 'codex' || vendor === 'opencode'
    ? { human, vendor, sessionId }
    : null
}

function parseStep(value: unknown): WorkStep | null {
  if (!isRecord(value)) return null
  switch (value.kind) {
    case 'auto-lease': {
      const { files, cwd, worktrees } = value
      if (!isStrings(files) || files.length === 0 || typeof cwd !== 'string' || !isStrings(worktrees))
        return null
      return { kind: 'auto-lease', files, cwd, worktrees }
    }
    case 'presence': {
      const { state, worktree } = value
      const known = presenceStates.find((candidate) => candidate === state)
      return known === undefined || typeof worktree !== 'string'
        ? null
        : { kind: 'presence', state: known, worktree }
    }
    case 'codex-endpoint': {
      const { endpoint, launcherPid } = value
      return typeof endpoint === 'string' && isNumber(launcherPid)
        ? { kind: 'codex-endpoint', endpoint, launcherPid }
        : null
    }
    case 'pane':
      return typeof value.pane === 'string' && value.pane !== '' ? { kind: 'pane', pane: value.pane } : null
    case 'release':
      return { kind: 'release' }
    case 'brief':
      return typeof value.cwd === 'string' ? { kind: 'brief', cwd: value.cwd } : null
    default:
      return null
  }
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string')
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value)
}
