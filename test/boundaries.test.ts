import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { test } from 'node:test'

/**
 * Folders are layers and imports flow one way (docs/architecture.md). A folder may import itself
 * and any folder of a lower rank; folders of equal rank do not import each other.
 */
const rank: Record<string, number> = {
  shared: 0,
  protocol: 1,
  core: 2,
  config: 3,
  store: 3,
  transcripts: 3,
  git: 3,
  services: 4,
  hooks: 5,
  mcp: 5,
  daemon: 5,
  serve: 5,
  install: 6,
  cli: 7,
}

const root = join(import.meta.dirname, '..')
const src = join(root, 'src')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g)]
  const dynamic = [...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)]
  return [...specifiers, ...dynamic].map((match) => match[1] ?? '')
}

const layerOf = (file: string): string => relative(src, file).split('/')[0] ?? ''

test('every folder under src/ has a rank', () => {
  const folders = readdirSync(src, { withFileTypes: true }).filter((entry) => entry.isDirectory())
  for (const folder of folders) assert.ok(folder.name in rank, `src/${folder.name} has no rank in this test`)
})

test('imports between src/ folders flow one way', () => {
  const violations: string[] = []
  for (const file of sourceFiles(src)) {
    if (file.endsWith('.test.ts')) continue
    const from = layerOf(file)
    for (const specifier of importsOf(file)) {
      if (!specifier.startsWith('.')) continue
      const target = layerOf(join(file, '..', specifier))
      if (target === from) continue
      const allowed = (rank[target] ?? 99) < (rank[from] ?? -1)
      if (!allowed) violations.push(`${relative(root, file)} imports ${target}/ (${specifier})`)
    }
  }
  assert.deepEqual(violations, [])
})

test('protocol/, core/ and shared/ import no Node builtins and no packages but zod', () => {
  const violations: string[] = []
  for (const file of sourceFiles(src)) {
    if (!['protocol', 'core', 'shared'].includes(layerOf(file)) || file.endsWith('.test.ts')) continue
    for (const specifier of importsOf(file)) {
      if (specifier.startsWith('.') || specifier === 'zod') continue
      violations.push(`${relative(root, file)} imports ${specifier}`)
    }
  }
  assert.deepEqual(violations, [])
})

test('SQL lives only in store/', () => {
  const violations: string[] = []
  for (const file of sourceFiles(src)) {
    if (layerOf(file) === 'store' || file.endsWith('.test.ts')) continue
    const text = readFileSync(file, 'utf8')
    if (/\.prepare\(|\.exec\(\s*['"`/]|\bpragma\(/.test(text)) violations.push(relative(root, file))
  }
  assert.deepEqual(violations, [])
})

test('the server imports only protocol/ and core/ from src/', () => {
  const serverSrc = join(root, 'server', 'src')
  let files: string[] = []
  try {
    files = sourceFiles(serverSrc)
  } catch {
    return
  }
  const violations: string[] = []
  for (const file of files) {
    for (const specifier of importsOf(file)) {
      if (!specifier.includes('/src/')) continue
      const target = specifier.split('/src/')[1]?.split('/')[0] ?? ''
      if (!['protocol', 'core', 'shared'].includes(target))
        violations.push(`${relative(root, file)} imports ${specifier}`)
    }
  }
  assert.deepEqual(violations, [])
})
