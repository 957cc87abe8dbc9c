/**
 * The files a Codex `apply_patch` call writes. Codex hands the hook the whole patch as
 * `tool_input.command`, so the paths are read from its file headers:
 *
 *   *** Add File: <path>       *** Delete File: <path>
 *   *** Update File: <path>    *** Move to: <path>   (a rename: both paths are written)
 *
 * Read the way Codex's own parser reads them (codex-rs/apply-patch/src/parser.rs, lenient mode),
 * because a header Codex accepts and we do not is an edit nobody checked: the patch is trimmed, a
 * `<<EOF` heredoc around it is dropped, and each hunk header is trimmed before it is matched, so
 * `   *** Update File: x` writes x. Inside a hunk Codex's rules decide what is content: an added
 * line starts with `+`, a chunk line with ` `, `+` or `-`, so a file containing the text
 * "*** Add File:" cannot smuggle a path in. A patch Codex would refuse writes nothing; for one we
 * cannot follow, every header-shaped line counts (denying too much beats allowing an edit).
 * Paths are returned as written (relative to the session's cwd, or absolute), trimmed, in order,
 * without duplicates.
 */
export function applyPatchPaths(patch: string): string[] {
  const lines = patchLines(patch)
  return unique(hunkPaths(lines) ?? headerShapedPaths(lines))
}

const addFile = '*** Add File: '
const deleteFile = '*** Delete File: '
const updateFile = '*** Update File: '
const moveTo = '*** Move to: '
const headers = [addFile, updateFile, deleteFile, moveTo] as const

/** Rust's `str::lines`: split on `\n`, drop one `\r` before it; after `trim`, as Codex does. */
function patchLines(patch: string): string[] {
  const trimmed = patch.trim()
  if (trimmed === '') return []
  const lines = trimmed.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line))
  const first = lines[0]
  const heredoc = first === '<<EOF' || first === "<<'EOF'" || first === '<<"EOF"'
  return heredoc && lines.length >= 4 && (lines.at(-1) ?? '').endsWith('EOF') ? lines.slice(1, -1) : lines
}

/** The paths of a patch Codex would parse, or null where its parser would stop with an error. */
function hunkPaths(lines: readonly string[]): string[] | null {
  if (lines[0] !== '*** Begin Patch' || lines.length < 2 || lines.at(-1) !== '*** End Patch') return null
  const paths: string[] = []
  let at = 1
  const end = lines.length - 1
  while (at < end) {
    const header = (lines[at] ?? '').trim()
    at++
    if (header.startsWith(addFile)) {
      paths.push(header.slice(addFile.length))
      while (at < end && (lines[at] ?? '').startsWith('+')) at++
    } else if (header.startsWith(deleteFile)) {
      paths.push(header.slice(deleteFile.length))
    } else if (header.startsWith(updateFile)) {
      paths.push(header.slice(updateFile.length))
      const move = lines[at] ?? ''
      if (at < end && move.startsWith(moveTo)) {
        paths.push(move.slice(moveTo.length))
        at++
      }
      const after = skipChunks(lines, at, end)
      if (after === null) return null
      at = after
    } else {
      return null
    }
  }
  return paths
}

/** Past an Update hunk's chunks, to the next hunk header; null when Codex would call it invalid. */
function skipChunks(lines: readonly string[], start: number, end: number): number | null {
  let at = start
  let chunks = 0
  while (at < end) {
    const line = lines[at] ?? ''
    if (line.trim() === '') {
      at++
      continue
    }
    if (line.startsWith('***')) break
    let body = at
    while (body < end && (lines[body] === '@@' || (lines[body] ?? '').startsWith('@@ '))) body++
    if (body === at && chunks > 0) return null
    let changed = 0
    for (; body < end; body++) {
      const text = lines[body] ?? ''
      if (text === '*** End of File') {
        if (changed === 0) return null
        body++
        break
      }
      if (text !== '' && !' +-'.includes(text[0] ?? '')) {
        if (changed === 0) return null
        break
      }
      changed++
    }
    if (changed === 0) return null
    chunks++
    at = body
  }
  return chunks === 0 ? null : at
}

/** Every line that reads as a header once trimmed, except added content (`+…`). */
function headerShapedPaths(lines: readonly string[]): string[] {
  const paths: string[] = []
  for (const line of lines) {
    const text = line.trim()
    const header = headers.find((prefix) => text.startsWith(prefix))
    if (header !== undefined) paths.push(text.slice(header.length))
  }
  return paths
}

function unique(paths: readonly string[]): string[] {
  const out: string[] = []
  for (const raw of paths) {
    const path = raw.trim()
    if (path !== '' && !out.includes(path)) out.push(path)
  }
  return out
}
