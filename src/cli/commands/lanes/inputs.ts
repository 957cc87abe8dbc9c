import type { LaneAgent } from '../../../lanes/services/enter-lane.ts'
import { ErrorCode, SangamError } from '../../../shared/sangam-error.ts'
import type { ArgumentDecl, OptionDecl } from '../../command.ts'
import { defineInput, flag, text } from '../../command-input.ts'

/** What the lane commands accept (src/cli/registry.ts lists the commands). */

function laneName(description: string): ArgumentDecl<string> {
  return {
    name: 'name',
    description,
    required: true,
    variadic: false,
    parse(raw) {
      // The name's rules are checked by the lane use cases (lane-name-input.ts): --help loads no core.
      const name = String(raw ?? '').trim()
      if (name === '') throw new SangamError(ErrorCode.Usage, 'a lane name is needed: sangam lane <name>')
      return name
    },
  }
}

/** `--agent claude|codex|gemini|opencode|"<command>"`, or `--no-agent` for a human's lane. */
const agentOption: OptionDecl<LaneAgent | undefined> = {
  flags: '--agent <agent>',
  description:
    'who works in the lane: claude (the default), codex, gemini, opencode, or a command line to start',
  negation: {
    flags: '--no-agent',
    description: "prepare the lane only: a human's lane (sync prints its tasks)",
  },
  parse(raw, flagName) {
    if (raw === undefined) return undefined
    if (raw === false) return { kind: 'none' }
    const command = String(raw).trim()
    if (command === '')
      throw new SangamError(
        ErrorCode.Usage,
        `${flagName} needs claude, codex, gemini, opencode or a command line`,
      )
    return { kind: 'agent', command }
  },
}

export const laneInput = defineInput({
  arguments: { name: laneName('the lane: letters, digits, _ and -; its branch is lane/<name>') },
  options: { agent: agentOption },
})

export const syncInput = defineInput({
  options: {
    takeover: flag(
      '--takeover',
      "take a stale integration lock over (its owner's work is saved under refs/sangam/ first)",
    ),
    reason: text(
      '-r, --reason <text>',
      'why you take the lock over (required with --takeover; recorded and shown)',
    ),
    acceptMain: text(
      '--accept-main <commit>',
      'accept a main that moved outside sangam (the commit sync names), then sync on it',
    ),
  },
})

export const laneLogInput = defineInput({})

export const deleteInput = defineInput({
  arguments: { name: laneName('the lane to retire (its work is saved under refs/sangam/deleted/ first)') },
})
