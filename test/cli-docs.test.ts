import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { commands } from '../src/cli/registry.ts'

const docs = readFileSync(join(import.meta.dirname, '..', 'docs', 'cli.md'), 'utf8')

function documentedCommands(): { name: string; summary: string }[] {
  const table = docs.split('## Commands')[1]?.split('\n## ')[0] ?? ''
  return table
    .split('\n')
    .map((line) => /^\|\s*`([^`]+)`\s*\|\s*(.+?)\s*\|\s*$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ name: match[1] ?? '', summary: match[2] ?? '' }))
}

test('the command table in docs/cli.md equals the command registry', () => {
  assert.deepEqual(
    documentedCommands(),
    commands.map((command) => ({ name: command.name, summary: command.summary })),
  )
})

test('every command has its own section in docs/cli.md with a --json example', () => {
  for (const command of commands) {
    const section = docs.split(`\n## \`sangam ${command.name}`)[1]?.split('\n## ')[0]
    assert.ok(section, `docs/cli.md has no "## \`sangam ${command.name}" section`)
    if (!command.noJson)
      assert.match(section, /```json/, `the ${command.name} section shows no --json example`)
  }
})
