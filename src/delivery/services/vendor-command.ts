import type { DeliveryVendor } from '../core/delivery-vocabulary.ts'

/** A vendor CLI invocation: its arguments, and the prompt on stdin (null when the channel takes it in argv). */
export interface VendorCommand {
  readonly args: readonly string[]
  readonly stdin: string | null
}

export type SpawnChannel = 'resume' | 'queue' | 'background' | 'new'

/**
 * The command line of each channel, checked against the installed CLIs' `--help` (Claude Code
 * 2.1.332, Codex 0.171.0). The prompt goes on stdin wherever the CLI reads it there (`--print`,
 * `exec … -`); `codex queue --message` and `claude --bg` take it only in argv, so the router uses
 * them only for prompts short enough (`maxArgvPromptChars`), else `resume`.
 *
 * - claude resume: `claude --print --resume <id>`, prompt on stdin
 * - claude background: `claude --bg --resume <id> <prompt>`
 * - claude new: `claude --print --session-id <id>` (sangam picks the id), prompt on stdin
 * - codex resume: `codex exec resume --all <id> -`, prompt on stdin (`--all`: no cwd filter)
 * - codex queue: `codex queue --thread <id> --message <prompt> --resume`
 * - codex new: `codex exec --json -`, prompt on stdin; the thread id is read from its first event
 */
export function vendorCommand(
  vendor: DeliveryVendor,
  channel: SpawnChannel,
  sessionId: string,
  prompt: string,
): VendorCommand {
  if (vendor === 'claude') {
    switch (channel) {
      case 'resume':
        return { args: ['--print', '--resume', sessionId], stdin: prompt }
      case 'background':
        return { args: ['--bg', '--resume', sessionId, prompt], stdin: null }
      case 'new':
        return { args: ['--print', '--session-id', sessionId], stdin: prompt }
      case 'queue':
        return { args: ['--print', '--resume', sessionId], stdin: prompt }
    }
  }
  switch (channel) {
    case 'queue':
      return { args: ['queue', '--thread', sessionId, '--message', prompt, '--resume'], stdin: null }
    case 'new':
      return { args: ['exec', '--json', '-'], stdin: prompt }
    default:
      return { args: ['exec', 'resume', '--all', sessionId, '-'], stdin: prompt }
  }
}

/** Codex `exec --json` starts with `{"type":"thread.started","thread_id":"…"}`: the new session's id. */
export function codexThreadIdIn(output: string): string | null {
  const match = /"thread_id"\s*:\s*"([0-9a-fA-F-]{8,})"/.exec(output)
  return match?.[1] ?? null
}
