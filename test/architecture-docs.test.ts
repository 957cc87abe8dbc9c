import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'

const root = join(import.meta.dirname, '..')
const tops = ['src', 'server', 'test', 'bench', 'scripts', 'web']
const skipped = new Set(['node_modules', 'dist'])

function folders(dir: string, name: string): string[] {
  return [
    `${name}/`,
    ...readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && !skipped.has(entry.name))
      .flatMap((entry) => folders(join(dir, entry.name), `${name}/${entry.name}`)),
  ]
}

/** The folder tree of docs/architecture.md: the code block after "One line per folder". */
function documentedFolders(): string[] {
  const text = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8')
  const start = text.indexOf('One line per folder')
  assert.ok(start >= 0, 'docs/architecture.md has the folder list')
  const block = text.slice(start).split('```')[1] ?? ''
  return block
    .split('\n')
    .map((line) => /^(\S+\/)\s/.exec(line)?.[1])
    .filter((folder): folder is string => folder !== undefined)
}

test('docs/architecture.md describes every folder of src/, server/, test/, bench/, scripts/ and web/, one line each', () => {
  const actual = tops.flatMap((top) => folders(join(root, top), top)).sort()
  const documented = documentedFolders()
  assert.deepEqual([...documented].sort(), actual)
  assert.equal(new Set(documented).size, documented.length, 'each folder once')
})
