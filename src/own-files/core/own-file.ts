import { isRecord } from '../../shared/is-record.ts'
import { mcpServerName, type SplitEntries, splitEntries } from './our-entries.ts'

/** The first line of the lane instructions `lane` writes as a lane's AGENTS.md (D209). */
export const instructionsMarker = '<!-- sangam-lane-instructions -->'

/** What kind of file of sangam's a path is: a host's hook file, Claude Code's MCP file, lane instructions. */
export type OwnFileKind = 'hooks' | 'mcp' | 'settings' | 'opencode-config' | 'instructions'

/**
 * The files sangam writes into a checkout, relative to the worktree's top level: `install-hooks`'s
 * project-level hook files, `init`'s `.mcp.json`, the AGENTS.md `lane` generates. Each may also
 * hold the user's own entries; only a change that is sangam's alone is sangam's (`isSangamsOwnChange`).
 */
export const ownFiles: Readonly<Record<string, OwnFileKind>> = {
  '.claude/settings.json': 'hooks',
  '.codex/hooks.json': 'hooks',
  '.mcp.json': 'mcp',
  // Gemini CLI's project settings: sangam's hooks (install-hooks) and MCP server (init).
  '.gemini/settings.json': 'settings',
  // opencode's project config: sangam's MCP server under `mcp` (init).
  'opencode.json': 'opencode-config',
  'AGENTS.md': 'instructions',
}

/** sangam's own folder in a worktree: lanes, task files, delete manifests (D200). */
export const ownFolder = '.sangam/'

/** The kind of sangam's file at `path` (worktree-relative, `/`-separated), or null. */
export function ownFileKind(path: string): OwnFileKind | null {
  return Object.hasOwn(ownFiles, path) ? (ownFiles[path] ?? null) : null
}

/**
 * Whether a change is sangam's alone, so it is nobody's work: `text` is the file in the worktree,
 * `base` the same path at HEAD (null: untracked). A file sangam writes is its own when, with
 * sangam's entries taken out of both sides (its hook handlers, `mcpServers.sangam`), nothing
 * differs: untracked, nothing else is left; tracked, the rest equals HEAD's. The user's own edit
 * beside ours (their own hook, another MCP server) makes the whole file theirs, and so does a file
 * that cannot be read as what it should be. A generated AGENTS.md is sangam's by its marker; an
 * untracked path under `.sangam/` is sangam's whatever it holds.
 */
export function isSangamsOwnChange(path: string, text: string | null, base: string | null): boolean {
  if (path.startsWith(ownFolder)) return base === null
  const kind = ownFileKind(path)
  if (kind === null || text === null) return false
  if (kind === 'instructions')
    return text.startsWith(instructionsMarker) && (base === null || base.startsWith(instructionsMarker))
  const now = splitOf(kind, text)
  if (now === null || now.ours.length === 0) return false
  if (base === null) return Object.keys(now.rest).length === 0
  const before = splitOf(kind, base)
  return before !== null && sameJson(now.rest, before.rest)
}

/**
 * Cheap test on a file's text, before it is parsed: could it hold an entry of sangam's at all.
 * False means it certainly does not.
 */
export function mayHoldOurs(kind: OwnFileKind, text: string): boolean {
  if (kind === 'hooks') return text.includes('agent-hook-main')
  if (kind === 'mcp' || kind === 'opencode-config') return text.includes(`"${mcpServerName}"`)
  if (kind === 'settings') return mayHoldOurs('hooks', text) || mayHoldOurs('mcp', text)
  return text.startsWith(instructionsMarker)
}

/** A host file's text parsed and split into ours and the rest; null when it is not such a file. */
export function splitOf(kind: Exclude<OwnFileKind, 'instructions'>, text: string): SplitEntries | null {
  const config = jsonObjectOf(text)
  return config === null ? null : splitEntries(kind, config)
}

/** A host file's text as a JSON object (empty text: `{}`); null when it is not one. */
export function jsonObjectOf(text: string): Record<string, unknown> | null {
  if (text.trim() === '') return {}
  try {
    const value: unknown = JSON.parse(text)
    return isRecord(value) ? value : null
  } catch {
    return null
  }
}

/** Equal as JSON values: objects whatever their keys' order, arrays in order. */
function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    return a.every((item, i) => sameJson(item, b[i]))
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a)
    if (keys.length !== Object.keys(b).length) return false
    return keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]))
  }
  return a === b
}
