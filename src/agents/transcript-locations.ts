import { type Dirent, readdirSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import type { TranscriptVendor } from './transcript-reader.ts'

/**
 * A directory under which a vendor writes transcripts, and the layout of its files:
 * - claude-projects: `projects/<dir>/<session>.jsonl`, old-style `projects/<dir>/agent-*.jsonl`,
 *   and subagents `projects/<dir>/<session>/subagents/**\/agent-*.jsonl`;
 * - codex-sessions: `sessions/YYYY/MM/DD/rollout-*.jsonl`;
 * - codex-archive: `archived_sessions/*.jsonl` (rollouts moved there by `codex archive`);
 * - gemini-chats: `tmp/<project>/chats/session-*.jsonl` and a subagent's
 *   `tmp/<project>/chats/<parent session>/<session>.jsonl`; laid out alike, sangam's journal of the
 *   whole-document sessions before 0.39 (agents/gemini/services/gemini-journal.ts).
 * - opencode-journal: `$SANGAM_HOME/opencode-journal/<session>.jsonl`, sangam's copy of opencode's
 *   database and of its JSON storage before 1.2 (agents/opencode/services/opencode-journal.ts).
 */
export interface TranscriptRoot {
  readonly path: string
  readonly vendor: TranscriptVendor
  readonly layout:
    | 'claude-projects'
    | 'codex-sessions'
    | 'codex-archive'
    | 'gemini-chats'
    | 'opencode-journal'
}

export interface TranscriptLocation {
  readonly path: string
  readonly vendor: TranscriptVendor
}

/**
 * Every transcript file under the roots, sorted by path. Missing roots and entries that vanish
 * while we walk (Claude Code sweeps old sessions; Codex archives rollouts) are simply not listed.
 * Claude's project directory names are never decoded: which project a file belongs to is read
 * from the `cwd` of its records.
 */
export function discoverTranscripts(roots: readonly TranscriptRoot[]): TranscriptLocation[] {
  const found: TranscriptLocation[] = []
  for (const root of roots) {
    for (const path of walkRoot(root)) found.push({ path, vendor: root.vendor })
  }
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}

/** The vendor of a path if it is where a transcript would live under one of the roots, else null. */
export function classifyTranscriptPath(
  roots: readonly TranscriptRoot[],
  path: string,
): TranscriptVendor | null {
  for (const root of roots) {
    const rel = relative(root.path, path)
    if (rel === '' || rel.startsWith('..')) continue
    if (matchesLayout(root.layout, rel.split(sep))) return root.vendor
  }
  return null
}

function matchesLayout(layout: TranscriptRoot['layout'], segments: readonly string[]): boolean {
  const name = segments.at(-1) ?? ''
  if (!name.endsWith('.jsonl')) return false
  switch (layout) {
    case 'claude-projects':
      return (
        segments.length === 2 ||
        (segments.length >= 4 && segments[2] === 'subagents' && name.startsWith('agent-'))
      )
    case 'codex-sessions':
      return segments.length === 4 && isDatePath(segments) && name.startsWith('rollout-')
    case 'codex-archive':
    case 'opencode-journal':
      return segments.length === 1
    case 'gemini-chats':
      return (
        segments[1] === 'chats' &&
        ((segments.length === 3 && name.startsWith('session-')) || segments.length === 4)
      )
  }
}

function isDatePath(segments: readonly string[]): boolean {
  return (
    /^\d{4}$/.test(segments[0] ?? '') &&
    /^\d{2}$/.test(segments[1] ?? '') &&
    /^\d{2}$/.test(segments[2] ?? '')
  )
}

function walkRoot(root: TranscriptRoot): string[] {
  switch (root.layout) {
    case 'claude-projects':
      return listDirs(root.path).flatMap((project) => walkClaudeProject(project))
    case 'codex-sessions':
      return listDirs(root.path)
        .flatMap(listDirs)
        .flatMap(listDirs)
        .flatMap((day) => listFiles(day).filter((file) => isRollout(file)))
        .filter((path) => classifyTranscriptPath([root], path) !== null)
    case 'codex-archive':
    case 'opencode-journal':
      return listFiles(root.path).filter((file) => file.endsWith('.jsonl'))
    case 'gemini-chats':
      return listDirs(root.path)
        .map((project) => join(project, 'chats'))
        .flatMap((chats) => [...listFiles(chats), ...listDirs(chats).flatMap(listFiles)])
        .filter((path) => classifyTranscriptPath([root], path) !== null)
  }
}

function walkClaudeProject(project: string): string[] {
  const sessions = listFiles(project).filter((file) => file.endsWith('.jsonl'))
  const subagents = listDirs(project).flatMap((session) => walkSubagents(join(session, 'subagents')))
  return [...sessions, ...subagents]
}

function walkSubagents(dir: string): string[] {
  const files = listFiles(dir).filter((file) => /\/agent-[^/]*\.jsonl$/.test(file))
  return [...files, ...listDirs(dir).flatMap(walkSubagents)]
}

function isRollout(path: string): boolean {
  return /\/rollout-[^/]*\.jsonl$/.test(path)
}

function listFiles(dir: string): string[] {
  return entries(dir)
    .filter((entry) => kindOf(dir, entry) === 'file')
    .map((entry) => join(dir, entry.name))
}

function listDirs(dir: string): string[] {
  return entries(dir)
    .filter((entry) => kindOf(dir, entry) === 'dir')
    .map((entry) => join(dir, entry.name))
}

function kindOf(dir: string, entry: Dirent): 'file' | 'dir' | 'other' {
  if (entry.isFile()) return 'file'
  if (entry.isDirectory()) return 'dir'
  if (!entry.isSymbolicLink()) return 'other'
  try {
    const stat = statSync(join(dir, entry.name))
    return stat.isFile() ? 'file' : stat.isDirectory() ? 'dir' : 'other'
  } catch {
    return 'other' // a dangling link
  }
}

const vanished = new Set(['ENOENT', 'ENOTDIR', 'EACCES', 'EPERM'])

function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
  } catch (error) {
    if (vanished.has((error as NodeJS.ErrnoException).code ?? '')) return []
    throw error
  }
}
