import type { VendorName } from '../../shared/vendor-names.ts'
import type { Db } from '../../store/database.ts'
import { listSourceFiles } from '../store/source-file-table.ts'

/** A transcript in the window that belongs to another project, and where its session started. */
export interface OtherProjectFile {
  readonly path: string
  readonly vendor: VendorName
  /** The session's first working directory (scrubbed), which decided it is not this project's. */
  readonly cwd: string | null
}

/** How many `index` and `doctor` name in their text; `--json` lists them all. */
const namedInText = 5

/** The transcripts modified since `since` that capture judged to be other projects'. */
export function otherProjectFiles(db: Db, since: number): OtherProjectFile[] {
  return listSourceFiles(db)
    .filter((row) => row.inScope === false && row.mtime >= since)
    .map((row) => ({ path: row.path, vendor: row.vendor, cwd: row.firstCwd }))
}

/** One line per file (the first few), saying which project each belongs to. */
export function describeOtherProjects(files: readonly OtherProjectFile[], indent: string): string[] {
  const lines = files
    .slice(0, namedInText)
    .map((file) => `${indent}${file.path} (${file.vendor}, started in ${file.cwd ?? 'an unknown directory'})`)
  if (files.length > namedInText)
    lines.push(`${indent}… and ${files.length - namedInText} more (--json lists them all)`)
  return lines
}
