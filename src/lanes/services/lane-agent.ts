import { accessSync, constants, statSync } from 'node:fs'
import { basename, delimiter, join } from 'node:path'
import { closeNames } from '../../shared/close-names.ts'
import { quoteInput } from '../../shared/quote-input.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'

/** The agents sangam works with: its hooks brief them and gate their edits, its MCP tools serve them. */
export const laneAgentVendors = ['claude', 'codex', 'gemini', 'opencode'] as const

/**
 * `lane --agent <agent>` checked before anything is created (D295): `claude`, `codex`, `gemini` or `opencode` (by name, by
 * path, with arguments) is an agent sangam supports; another command line is started as given
 * when its program exists, with a warning that sangam's hooks and tools do not reach it. A name
 * that is none of them (`opencode`, `claud`) is refused naming the supported agents, so a typo or an
 * unsupported vendor never becomes a lane whose agent does not start or is not guarded.
 */
export function checkLaneAgent(
  command: string,
  pathVariable: string | undefined,
): { readonly warning: string | null } {
  const program = command.trim().split(/\s+/)[0] ?? ''
  if ((laneAgentVendors as readonly string[]).includes(basename(program))) return { warning: null }
  const found = program.includes('/') ? isExecutable(program) : onPath(program, pathVariable)
  if (!found) {
    const close = closeNames(program, laneAgentVendors)
    const hint = close.length === 0 ? '' : `did you mean ${close.join(' or ')}? `
    throw new SangamError(
      ErrorCode.Usage,
      `--agent ${quoteInput(program)} is not an agent sangam supports, nor a program ${program.includes('/') ? 'at that path' : 'on PATH'}; ${hint}` +
        `the agents are ${agentList('and')} (another program: its command line, --agent "<command>"; a human's lane: --no-agent)`,
    )
  }
  return {
    warning:
      `the lane's agent ${quoteInput(command.trim())} is none of ${agentList('or')}: sangam's hooks ` +
      '(the brief, the room, lease checks on its edits) and its MCP tools do not reach it; it is started as given',
  }
}

/** `claude, codex and gemini`. */
function agentList(last: string): string {
  return `${laneAgentVendors.slice(0, -1).join(', ')} ${last} ${laneAgentVendors.at(-1)}`
}

function onPath(program: string, pathVariable: string | undefined): boolean {
  if (program === '') return false
  return (pathVariable ?? '')
    .split(delimiter)
    .filter((dir) => dir !== '')
    .some((dir) => isExecutable(join(dir, program)))
}

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}
