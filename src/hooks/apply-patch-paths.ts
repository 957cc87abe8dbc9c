/**
 * The files a Codex `apply_patch` call writes. Codex hands the hook the whole patch as
 * `tool_input.command`, so the paths are read from its file headers:
 *
 *   *** Add File: <path>       *** Delete File: <path>
 *   *** Update File: <path>    *** Move to: <path>   (a rename: both paths are written)
 *
 * Only lines that start with a header count; added content lines start with `+`, so a patch that
 * adds a file containing the text "*** Add File:" cannot smuggle a path in. Paths are returned as
 * written (relative to the session's cwd, or absolute), in order, without duplicates.
 */
export function applyPatchPaths(patch: string): string[] {
  const paths: string[] = []
  for (const rawLine of patch.split('\n')) {
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine
    const header = headers.find((prefix) => line.startsWith(prefix))
    if (header === undefined) continue
    const path = line.slice(header.length).trim()
    if (path !== '' && !paths.includes(path)) paths.push(path)
  }
  return paths
}

const headers = ['*** Add File: ', '*** Update File: ', '*** Delete File: ', '*** Move to: '] as const
