import assert from 'node:assert/strict'
import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../../../test/helpers/tmp-git-repo.ts'
import { questionWaitingId, restingBackgroundId, stopClaudeBackground } from './claude-background.ts'

const session = '8dc06fe7-6029-4627-b5d3-fd8aaa273ade'
const agent = {
  sessionId: session,
  shortId: '8dc06fe7',
  kind: 'background',
  status: 'idle',
  state: 'working',
}

test('only a session listed once, as an idle background one, is at rest in the background', () => {
  assert.equal(restingBackgroundId([agent], session), '8dc06fe7')
  assert.equal(restingBackgroundId(null, session), null, 'claude cannot say')
  assert.equal(restingBackgroundId([], session), null, 'not listed: dormant, resumed as usual')
  assert.equal(restingBackgroundId([{ ...agent, kind: 'interactive' }], session), null, 'a terminal holds it')
  assert.equal(restingBackgroundId([{ ...agent, status: 'busy' }], session), null, 'a turn runs')
  assert.equal(restingBackgroundId([{ ...agent, shortId: null }], session), null, 'nothing to stop it by')
  assert.equal(
    restingBackgroundId([agent, { ...agent, kind: 'interactive', shortId: null }], session),
    null,
    'also open in a terminal',
  )
  assert.equal(restingBackgroundId([agent], 'another-session'), null)
  assert.equal(
    restingBackgroundId([{ ...agent, state: 'blocked' }], session),
    null,
    'waiting at a question: stopping and continuing it would only ask again',
  )
})

test('a session Claude Code lists as blocked waits at a question; the id to attach to is its short id', () => {
  // What `claude agents --json` said with 2.1.332 for a background session whose API key was never approved.
  const blocked = { ...agent, state: 'blocked' }
  assert.equal(questionWaitingId([blocked], session), '8dc06fe7')
  assert.equal(questionWaitingId([{ ...blocked, shortId: null }], session), session)
  assert.equal(questionWaitingId([{ ...blocked, kind: 'interactive' }], session), '8dc06fe7')
  assert.equal(questionWaitingId([agent], session), null, 'working')
  assert.equal(questionWaitingId([{ ...agent, state: null }], session), null, 'an older claude says no state')
  assert.equal(questionWaitingId([blocked], 'another-session'), null)
  assert.equal(questionWaitingId(null, session), null, 'claude cannot say')
})

test('claude stop: null once it stopped, else what it said', async () => {
  await using dir = tmpDir('sangam-claude-stop-')
  const bin = join(dir.path, 'claude')
  const log = join(dir.path, 'argv')
  writeFileSync(
    bin,
    `#!/bin/sh\necho "$@" >> '${log}'\n[ "$2" = gone ] && { echo "no background session gone" >&2; exit 1; }\necho "stopped $2"\n`,
  )
  chmodSync(bin, 0o755)
  assert.equal(stopClaudeBackground(bin, '8dc06fe7', { PATH: '/usr/bin:/bin' }, dir.path), null)
  assert.equal(
    stopClaudeBackground(bin, 'gone', { PATH: '/usr/bin:/bin' }, dir.path),
    'claude stop gone exited with 1: no background session gone',
  )
  assert.match(
    stopClaudeBackground(join(dir.path, 'missing'), 'x', {}, dir.path) ?? '',
    /could not run: .*ENOENT/,
  )
  assert.equal(readFileSync(log, 'utf8'), 'stop 8dc06fe7\nstop gone\n')
})
