import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The repository the merge benches (`ready`, collisions on read) measure in: 300 source files of
 * 40 lines in ten folders, so git's merges walk a tree of a real project's size, and files of
 * numbered lines whose lanes edit one line each, so which merges conflict is known in advance.
 */
export function numberedLines(count: number, tag: string): string {
  return Array.from({ length: count }, (_, i) => `export const ${tag}${i} = ${i}\n`).join('')
}

/** Writes the 300 files into `repo` (not committed: the bench adds its own files first). */
export function writeSourceTree(repo: string): void {
  for (let i = 0; i < 300; i += 1) {
    mkdirSync(join(repo, 'src', `m${i % 10}`), { recursive: true })
    writeFileSync(join(repo, 'src', `m${i % 10}`, `f${i}.ts`), numberedLines(40, 'v'))
  }
}
