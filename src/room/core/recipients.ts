import { closeNames } from '../../shared/close-names.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import { humanToken } from '../protocol/human-token.ts'
import type { RoomDirectory } from './directory.ts'
import type { Mentions } from './mentions.ts'

/**
 * Resolves what a post addresses (`--to` tokens, then the mentions of its text) against the room's
 * directory, into tokens `@handle`, `@human` and `#worktree`. It fails closed: a name the room does
 * not know is refused naming the close matches, and a name that could mean two things is refused
 * naming both, because a message that silently reaches nobody (or the wrong lane) is worse than
 * one that is not sent. A bare name (`--to lane-one`) may be a handle or a worktree target.
 */
export function resolveRecipients(directory: RoomDirectory, requested: readonly string[]): string[] {
  const resolved: string[] = []
  for (const raw of requested) {
    const token = resolveOne(directory, raw.trim())
    if (!resolved.includes(token)) resolved.push(token)
  }
  return resolved
}

/**
 * Resolves the mentions of a message's text like `--to` tokens; a refusal names the mention as it
 * was written (`@ project-manager`) and how to write it as plain text instead.
 */
export function resolveMentions(directory: RoomDirectory, mentions: Mentions): string[] {
  const resolved: string[] = []
  for (const token of [
    ...mentions.handles.map((handle) => `@${handle}`),
    ...mentions.worktrees.map((target) => `#${target}`),
  ]) {
    let one: string
    try {
      one = resolveOne(directory, token)
    } catch (error) {
      if (!(error instanceof SangamError) || error.code !== ErrorCode.InvalidInput) throw error
      const written = mentions.spelled.get(token)
      const as = written === undefined ? '' : ` (written "${written}")`
      throw new SangamError(
        ErrorCode.InvalidInput,
        `${error.message}; it is a mention in the text${as}: put it in \`backticks\` to write it as plain text`,
        error.data,
      )
    }
    if (!resolved.includes(one)) resolved.push(one)
  }
  return resolved
}

const everyoneTokens: readonly string[] = ['@all', '@everyone']

function resolveOne(directory: RoomDirectory, rawToken: string): string {
  // Full-width sigils and spaces after the sigil name the same recipient (`＠ ana` is `@ana`).
  const raw = rawToken.replace(/^[＠]/, '@').replace(/^[＃]/, '#')
  const sigil = raw.startsWith('@') || raw.startsWith('#') ? raw[0] : null
  const name = sigil === null ? raw : raw.slice(1).trim()
  if (name.length === 0) throw new SangamError(ErrorCode.InvalidInput, `"${raw}" names no recipient`)
  if (sigil !== '#' && name.toLowerCase() === 'human') return humanToken
  // Reserved handles (room/core/handles.ts): every session's context takes them; no turn starts.
  if (sigil !== '#' && everyoneTokens.includes(`@${name.toLowerCase()}`)) return `@${name.toLowerCase()}`
  const candidates = [
    ...(sigil === '#' ? [] : handleMatches(directory, name)),
    ...(sigil === '@' ? [] : targetMatches(directory, name)),
  ]
  const [only] = candidates
  if (only !== undefined && candidates.length === 1) return only.token
  if (candidates.length > 1) {
    throw new SangamError(
      ErrorCode.InvalidInput,
      `"${raw}" is ambiguous: it could be ${candidates.map((candidate) => candidate.label).join(', or ')}; name one of them exactly`,
      { recipient: raw, candidates: candidates.map((candidate) => candidate.token) },
    )
  }
  const close = closeMatches(directory, name)
  const hint =
    close.length > 0
      ? `did you mean ${close.join(', ')}?`
      : 'sangam targets lists the handles and worktrees the room knows'
  throw new SangamError(ErrorCode.InvalidInput, `nobody in the room is called "${raw}": ${hint}`, {
    recipient: raw,
    closeMatches: close,
  })
}

interface Candidate {
  readonly token: string
  readonly label: string
}

function handleMatches(directory: RoomDirectory, name: string): Candidate[] {
  const wanted = name.toLowerCase()
  const sessions = new Map<string, Candidate>()
  for (const agent of directory.agents) {
    if (agent.handle.toLowerCase() !== wanted) continue
    sessions.set(`${agent.vendor}:${agent.sessionId}`, {
      token: `@${agent.handle}`,
      label: `@${agent.handle} (${agent.vendor} session ${agent.sessionId} on ${agent.machine})`,
    })
  }
  for (const person of directory.people) {
    if (person.handle.toLowerCase() !== wanted) continue
    sessions.set(`person:${person.name}`, {
      token: `@${person.handle}`,
      label: `@${person.handle} (${person.name})`,
    })
  }
  return [...sessions.values()]
}

function targetMatches(directory: RoomDirectory, name: string): Candidate[] {
  const wanted = name.toLowerCase()
  const places = new Map<string, Candidate>()
  for (const worktree of directory.worktrees) {
    if (worktree.target.toLowerCase() !== wanted) continue
    places.set(`${worktree.machine}:${worktree.path}`, {
      token: `#${worktree.target}`,
      label: `#${worktree.target} (${worktree.path} on ${worktree.machine})`,
    })
  }
  return [...places.values()]
}

/** At most five known tokens near `name`: sharing a prefix, or a few edits away. */
function closeMatches(directory: RoomDirectory, name: string): string[] {
  const known = [
    ...directory.agents.map((agent) => `@${agent.handle}`),
    ...directory.people.map((person) => `@${person.handle}`),
    ...directory.worktrees.map((worktree) => `#${worktree.target}`),
    humanToken,
  ]
  return closeNames(name, known, { forms: (token) => [token.slice(1)] })
}
