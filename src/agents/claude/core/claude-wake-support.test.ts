import assert from 'node:assert/strict'
import { test } from 'node:test'
import { claudeWakeSupport, compareVersions, minClaudeWakeVersion } from './claude-wake-support.ts'

test('only an interactive Claude Code of a verified version waits for a wake', () => {
  assert.deepEqual(claudeWakeSupport({ version: '2.1.332', entrypoint: 'cli' }), { waits: true })
  assert.deepEqual(claudeWakeSupport({ version: minClaudeWakeVersion, entrypoint: 'cli' }), { waits: true })
  assert.deepEqual(claudeWakeSupport({ version: '2.10.0', entrypoint: 'cli' }), { waits: true })

  const print = claudeWakeSupport({ version: '2.1.332', entrypoint: 'sdk-cli' })
  assert.equal(print.waits, false)
  assert.match(print.waits ? '' : print.why, /not an interactive Claude Code session \(entrypoint sdk-cli\)/)
  const unset = claudeWakeSupport({ version: '2.1.332', entrypoint: null })
  assert.match(unset.waits ? '' : unset.why, /entrypoint unset/)

  const old = claudeWakeSupport({ version: '2.1.218', entrypoint: 'cli' })
  assert.match(old.waits ? '' : old.why, /Claude Code 2\.1\.218 is older than 2\.1\.219.*update Claude Code/)
  const unknown = claudeWakeSupport({ version: null, entrypoint: 'cli' })
  assert.match(unknown.waits ? '' : unknown.why, /version could not be told/)
})

test('versions compare part by part, as numbers', () => {
  assert.equal(compareVersions('2.1.219', '2.1.332'), -1)
  assert.equal(compareVersions('2.1.332', '2.1.219'), 1)
  assert.equal(compareVersions('2.1.40', '2.1.219'), -1, 'not as text')
  assert.equal(compareVersions('2.2', '2.1.999'), 1)
  assert.equal(compareVersions('2.1.219', '2.1.219'), 0)
  assert.equal(compareVersions('2.1', '2.1.0'), 0)
})
