import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** Every regular file under `dir`, at any depth (a database, its WAL, git's objects, logs…). */
export function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* filesUnder(path)
    else if (entry.isFile()) yield path
  }
}

/**
 * Each secret found in any byte of any file under `roots`, as `<file>: <first characters>…` (never
 * the whole secret, so a failure message leaks nothing either). Files are read raw: a database,
 * its write-ahead log and git's loose objects (compressed: a secret in one is found in the refs,
 * the index or the reflog, which are not) as they are on disk.
 */
export function leaksUnder(roots: readonly string[], secrets: readonly string[]): string[] {
  const leaks: string[] = []
  for (const root of roots) {
    for (const path of filesUnder(root)) {
      if (statSync(path).size === 0) continue
      const bytes = readFileSync(path)
      for (const secret of secrets) {
        if (bytes.includes(secret)) leaks.push(`${path.slice(root.length)}: ${secret.slice(0, 12)}…`)
      }
    }
  }
  return leaks
}
