import { escapeControls } from '../shared/terminal-text.ts'
import type { KeptNote } from './hook-work.ts'

/**
 * What an agent hook prints. Claude Code and Codex read the same JSON on stdout (exit 0):
 * `hookSpecificOutput.permissionDecision: "deny"` with a reason the model sees, or
 * `additionalContext` that joins the model's context. An allowed edit prints no decision at all:
 * `"allow"` would skip the host's own permission prompt, which is not ours to skip.
 */
export interface HookAnswer {
  /** The whole of stdout: one JSON object, or nothing. */
  readonly stdout: string
  /** A line for the user's terminal or the host's debug log, or nothing. */
  readonly stderr: string
  /** Recorded in the heartbeat: `allow`, `deny`, `context`, `released`, `ignored`, `fail-open: …`. */
  readonly outcome: string
  /**
   * Called by the hook's entry once the answer is written (`true`) or was not (`false`: the
   * budget's answer went out instead). A context that moved a cursor commits the move here, so a
   * hook killed before it answered loses nothing (hooks/prompt-submit.ts).
   */
  readonly settle?: ((delivered: boolean) => void) | undefined
}

export function denyEdit(reason: string): HookAnswer {
  return {
    stdout: json({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: reason,
    }),
    stderr: '',
    outcome: 'deny',
  }
}

/** An allowed edit; `notes` (collisions that did not block) reach the model as context. */
export function allowEdit(notes: readonly string[]): HookAnswer {
  if (notes.length === 0) return { stdout: '', stderr: '', outcome: 'allow' }
  return {
    stdout: json({
      hookEventName: 'PreToolUse',
      additionalContext: notes.map((note) => `sangam: ${note}`).join('\n'),
    }),
    stderr: '',
    outcome: 'allow',
  }
}

export function sessionContext(text: string): HookAnswer {
  if (text.trim() === '') return { stdout: '', stderr: '', outcome: 'context' }
  return {
    stdout: json({ hookEventName: 'SessionStart', additionalContext: text }),
    stderr: '',
    outcome: 'context',
  }
}

/** UserPromptSubmit's context: what the room has for the session joins the model's context. */
export function promptContext(text: string): HookAnswer {
  if (text.trim() === '') return { stdout: '', stderr: '', outcome: 'online' }
  return {
    stdout: json({ hookEventName: 'UserPromptSubmit', additionalContext: text }),
    stderr: '',
    outcome: 'context',
  }
}

export function quiet(outcome: string): HookAnswer {
  return { stdout: '', stderr: '', outcome }
}

/**
 * The answer when sangam cannot decide (store unreadable or locked, malformed input, time budget
 * spent): the work goes on, and whoever reads the context is told that nothing was checked.
 */
export function failOpen(eventName: string | null, why: string): HookAnswer {
  const outcome = `fail-open: ${why}`
  if (eventName === 'PreToolUse') {
    return {
      stdout: json({
        hookEventName: 'PreToolUse',
        additionalContext: `sangam could not check this edit against file leases (${why}); it was allowed.`,
      }),
      stderr: `sangam: ${why}; the edit was allowed without a lease check\n`,
      outcome,
    }
  }
  if (eventName === 'SessionStart') {
    return {
      stdout: json({
        hookEventName: 'SessionStart',
        additionalContext: `sangam: the team brief is unavailable (${why}).`,
      }),
      stderr: `sangam: ${why}; no brief\n`,
      outcome,
    }
  }
  return { stdout: '', stderr: `sangam: ${why}\n`, outcome }
}

/** The events whose answer carries context to the model (`additionalContext`, a denial's reason). */
const contextEvents: ReadonlySet<string> = new Set(['PreToolUse', 'SessionStart', 'UserPromptSubmit'])

/**
 * `answer` with `lines` for the model too: after a denial's reason, else in `additionalContext`.
 * Events whose answer carries no context (Stop, SessionEnd) are left as they were. The answer's
 * stdout is this module's own JSON, so it is read back as such.
 */
export function withContext(
  answer: HookAnswer,
  eventName: string | null,
  lines: readonly string[],
): HookAnswer {
  if (lines.length === 0 || eventName === null || !contextEvents.has(eventName)) return answer
  const text = lines.join('\n')
  let specific: Record<string, string>
  try {
    const output =
      answer.stdout === ''
        ? {}
        : (JSON.parse(answer.stdout) as { hookSpecificOutput?: Record<string, string> })
    specific = { hookEventName: eventName, ...output.hookSpecificOutput }
  } catch {
    return answer
  }
  if (specific.permissionDecision === 'deny')
    specific.permissionDecisionReason = `${specific.permissionDecisionReason ?? ''}\n\n${text}`
  else
    specific.additionalContext = specific.additionalContext
      ? `${specific.additionalContext}\n\n${text}`
      : text
  return { ...answer, stdout: json(specific) }
}

/**
 * `answer` saying what the hook did not finish and kept for afterwards (hook-work.ts): a stderr
 * line naming each step and why, the outcome for the heartbeat, and for the model what concerns
 * it: an edit whose auto-lease is recorded late, a brief that comes with the next prompt.
 */
export function withKeptWork(
  answer: HookAnswer,
  eventName: string | null,
  kept: readonly KeptNote[],
): HookAnswer {
  if (kept.length === 0) return answer
  const lines: string[] = []
  if (kept.some((note) => note.kind === 'auto-lease'))
    lines.push(
      "sangam: this edit's auto-lease was not recorded in time; the edit is allowed, and sangam records " +
        'the lease afterwards. If someone else holds the file by then, you will be told here.',
    )
  if (kept.some((note) => note.kind === 'brief'))
    lines.push('sangam: the team brief comes with your next prompt.')
  const told = withContext(answer, eventName, lines)
  const list = kept.map((note) => note.text).join('; ')
  return {
    ...told,
    stderr: `${answer.stderr}sangam: not finished within the hook's time budget, kept and done afterwards: ${list}\n`,
    outcome: `${answer.outcome} (kept: ${kept.map((note) => note.kind).join(', ')})`,
  }
}

/**
 * The host shows these texts (a denial's reason, a context) on its own screen, and they carry what
 * others wrote (a lease reason, a message): their control characters go escaped (D290).
 */
function json(hookSpecificOutput: Record<string, string>): string {
  const shown = Object.fromEntries(
    Object.entries(hookSpecificOutput).map(([key, value]) => [key, escapeControls(value)]),
  )
  return JSON.stringify({ hookSpecificOutput: shown })
}
