import { runGitAsync } from './git.ts'

/** A path changed since the base, with the base line ranges its hunks replace (null: unknown). */
export interface BaseChange {
  readonly path: string
  readonly ranges: readonly (readonly [number, number])[] | null
}

/** Where a worktree left the main branch and what it changes since, for its `room.worktree` state. */
export interface BaseChanges {
  /** The merge base of HEAD with the main branch. */
  readonly base: string
  /** ms epoch of HEAD's commit. */
  readonly lastCommitAt: number | null
  /** Every path changed from `base` to the working-state commit (committed or not), sorted. */
  readonly changes: readonly BaseChange[]
}

const hunkHeader = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/

/**
 * What `commit` (a worktree's working state over `head`) changes since `head` left `main`: the
 * names from `git diff --name-only -z` (exact, whatever the characters) and the hunks of
 * `git diff -U0` between the same commits, one section per name in the same order. `@@ -a,b` is
 * base lines a..a+b-1; a pure insertion (b = 0) after line a is [a, a], so it touches the lines
 * beside it as git's merge does. A binary file, or one with more than `maxHunks` hunks, has null
 * ranges (the whole file). Null when HEAD and main share no history. The patch is read here and
 * dropped: only paths and line numbers leave this function.
 */
export async function baseChanges(
  cwd: string,
  main: string,
  head: string,
  commit: string,
  maxHunks: number,
): Promise<BaseChanges | null> {
  const merged = await runGitAsync(['merge-base', main, head], cwd)
  if (merged.code !== 0) return null
  const base = merged.stdout.trim()
  const [dated, names, patch] = await Promise.all([
    runGitAsync(['show', '-s', '--format=%ct', head], cwd),
    runGitAsync(['diff', '--name-only', '--no-renames', '-z', base, commit, '--'], cwd),
    runGitAsync(
      ['diff', '-U0', '--no-renames', '--no-color', '--no-ext-diff', '--no-textconv', base, commit, '--'],
      cwd,
    ),
  ])
  if (names.code !== 0 || patch.code !== 0) return null
  const seconds = Number(dated.stdout.trim())
  const paths = names.stdout.split('\0').filter((item) => item !== '')
  const sections = patchSections(patch.stdout)
  // The two outputs come from the same diff of the same commits; if they ever disagree, say
  // "unknown" for every path rather than pair a path with another's hunks.
  const aligned = sections.length === paths.length
  const changes = paths.map((path, i): BaseChange => {
    const section = aligned ? sections[i] : undefined
    return { path, ranges: section === undefined ? null : sectionRanges(section, maxHunks) }
  })
  return {
    base,
    lastCommitAt: dated.code === 0 && Number.isInteger(seconds) ? seconds * 1000 : null,
    changes: changes.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0)),
  }
}

function patchSections(patch: string): string[][] {
  const sections: string[][] = []
  for (const line of patch.split('\n')) {
    if (line.startsWith('diff --git ')) sections.push([])
    else sections.at(-1)?.push(line)
  }
  return sections
}

function sectionRanges(lines: readonly string[], maxHunks: number): [number, number][] | null {
  const ranges: [number, number][] = []
  for (const line of lines) {
    if (line.startsWith('Binary files ') || line === 'GIT binary patch') return null
    const match = hunkHeader.exec(line)
    if (match === null) continue
    const start = Number(match[1])
    const count = match[2] === undefined ? 1 : Number(match[2])
    ranges.push(count === 0 ? [start, start] : [start, start + count - 1])
    if (ranges.length > maxHunks) return null
  }
  return ranges
}
