import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { tools } from '../src/mcp/tools.ts'

const docs = readFileSync(join(import.meta.dirname, '..', 'docs', 'mcp.md'), 'utf8')

test('the tool table in docs/mcp.md lists exactly the tools the server registers, in its order', () => {
  const table = docs.split('| tool | what it does | read-only |')[1]?.split('\n\n')[0] ?? ''
  const documented = table
    .split('\n')
    .map((line) => /^\|\s*`([a-z_]+)`\s*\|/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined)
  assert.deepEqual(
    documented,
    tools.map((tool) => tool.name),
  )
})
