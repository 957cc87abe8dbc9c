import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { test } from 'node:test'
import { commands } from './registry.ts'

const src = join(import.meta.dirname, '..')

/**
 * What loading `file` loads before any of it runs: the files and packages reached through static
 * imports (`import type` is erased; `import()` waits until called).
 */
function staticClosure(file: string): { files: string[]; packages: string[] } {
  const files = new Set<string>()
  const packages = new Set<string>()
  const visit = (path: string): void => {
    if (files.has(path)) return
    files.add(path)
    const text = readFileSync(path, 'utf8')
    for (const match of text.matchAll(
      /(?:^|\n)\s*(?:import|export)\s(?!type\s)[^'"]*?from\s+['"]([^'"]+)['"]/g,
    )) {
      const specifier = match[1] ?? ''
      if (specifier.startsWith('.')) visit(join(dirname(path), specifier))
      else if (!specifier.startsWith('node:')) packages.add(specifier)
    }
  }
  visit(file)
  return { files: [...files].map((path) => relative(src, path)).sort(), packages: [...packages].sort() }
}

test('starting the CLI loads no command implementation, service or store: only commander', () => {
  const { files, packages } = staticClosure(join(src, 'cli', 'main.ts'))
  const beyond = files.filter(
    (path) => path.startsWith('cli/commands/') || !/^(cli|shared|config)\//.test(path),
  )
  assert.deepEqual(beyond, [])
  assert.deepEqual(packages, ['commander'])
  assert.ok(files.includes('cli/registry.ts'), 'the closure follows main.ts into the registry')
})

test("every command's implementation loads and exports run", async () => {
  for (const command of commands) {
    const implementation = await command.load()
    assert.equal(typeof implementation.run, 'function', command.name)
  }
})

test('command names are unique', () => {
  const names = commands.map((command) => command.name)
  assert.deepEqual([...new Set(names)], names)
})
