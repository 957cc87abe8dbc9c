/**
 * Whether a Claude Code session may have its wake waiter wait (D370, D372). The waiter is a Stop
 * hook Claude Code runs with `asyncRewake: true`: in the background, and when it exits 2 its stderr
 * becomes the next thing the model sees, starting a turn in an idle session. Two things must hold,
 * or the waiter must exit at once:
 *
 * - an interactive session (`CLAUDE_CODE_ENTRYPOINT=cli`, the terminal UI): `claude -p` and the
 *   SDKs run asyncRewake hooks synchronously (verified with 2.1.332: a waiting Stop hook held a
 *   `claude -p` open until the hook's timeout), and a print session has nobody to wake anyway;
 * - a version verified to honour `asyncRewake` the same way: 2.1.219 and 2.1.332 were driven
 *   offline. An older one might not know the field and run the waiter synchronously too.
 */
export const minClaudeWakeVersion = '2.1.219'

export type ClaudeWakeSupport = { readonly waits: true } | { readonly waits: false; readonly why: string }

export function claudeWakeSupport(input: {
  /** From the hook's environment (`AI_AGENT`), null when it cannot be told. */
  readonly version: string | null
  /** `CLAUDE_CODE_ENTRYPOINT`, null when unset. */
  readonly entrypoint: string | null
}): ClaudeWakeSupport {
  if (input.entrypoint !== 'cli')
    return {
      waits: false,
      why: `not an interactive Claude Code session (entrypoint ${input.entrypoint ?? 'unset'}): a print or SDK session is not woken in place`,
    }
  if (input.version === null)
    return { waits: false, why: 'the Claude Code version could not be told (AI_AGENT unset or unknown)' }
  if (compareVersions(input.version, minClaudeWakeVersion) < 0)
    return {
      waits: false,
      why: `Claude Code ${input.version} is older than ${minClaudeWakeVersion}, the first verified to wake a session in place; update Claude Code`,
    }
  return { waits: true }
}

/** Compares dotted numeric versions (`2.1.219` < `2.1.332` < `2.2.0`); a missing part counts 0. */
export function compareVersions(a: string, b: string): number {
  const left = a.split('.').map((part) => Number.parseInt(part, 10) || 0)
  const right = b.split('.').map((part) => Number.parseInt(part, 10) || 0)
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0)
    if (difference !== 0) return Math.sign(difference)
  }
  return 0
}
