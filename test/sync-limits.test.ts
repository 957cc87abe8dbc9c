import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { setTimeout as delay } from 'node:timers/promises'
import type { Attachment } from '../src/sync/services/attachment.ts'
import { SyncHttpClient } from '../src/sync/services/http-client.ts'
import { attachBoth, syncWorld } from './helpers/sync-world.ts'
import { eventually } from './helpers/up-process.ts'

/**
 * A server with small limits (workerd run by the test with other vars): the client sizes its pushes
 * to what `/v1/health` advertises, cuts a record larger than the body limit, and waits out
 * RATE_LIMITED for the time the server names.
 */
test('pushes follow the server limits: records per push, body size, and RATE_LIMITED retryAfterMs', async () => {
  await using world = await syncWorld({
    vars: { PUSHES_PER_SECOND: '5', MAX_RECORDS_PER_PUSH: '10', MAX_BODY_BYTES: '65536' },
  })
  const { a, b } = world
  await attachBoth(world, { lineOnStdin: true })
  await using upA = a.up()
  await using upB = b.up()
  await Promise.all([upA.waitFor('sync-connected'), upB.waitFor('sync-connected')])

  // Someone else pushing under alice's client id spends its budget until her daemon's own push is
  // refused RATE_LIMITED: waited for as it happens, since on a loaded machine her push may come
  // after any fixed number of spent pushes has left the one-second window.
  const attachment = JSON.parse(readFileSync(join(a.projectDir, 'sync.json'), 'utf8')) as Attachment
  const http = new SyncHttpClient(attachment)
  const texts = Array.from({ length: 30 }, (_, i) => `limits turn ${i} token${i}l`)
  const huge = `huge paste ${'0123456789abcdef '.repeat(12_000)}`
  const rateLimited = /push rate limited by the server; sending it again .*"retryAfterMs":\d+/
  let spending = true
  const spender = (async () => {
    while (spending) {
      await http.push({ clientId: attachment.clientId, records: [noteDraft(attachment)] })
      await delay(20)
    }
  })()
  for (const text of texts) a.say('alice-limits', text)
  a.say('alice-limits', huge)
  try {
    await eventually(() => rateLimited.test(upA.stderr()), 60_000, "alice's push refused RATE_LIMITED")
  } finally {
    spending = false
    await spender
  }

  await eventually(
    () => b.events().filter((event) => event.sourcePath?.includes('/alice/')).length === 31,
    60_000,
    'all turns on bob',
  )
  const pushes = upA.statuses
    .filter((status) => status.type === 'sync-pushed')
    .map((status) => Number(status.records))
  assert.ok(
    pushes.every((records) => records <= 10),
    `pushes of ${pushes.join(', ')} records`,
  )
  const copy = b.events().find((event) => event.text.startsWith('huge paste'))
  assert.ok(copy !== undefined && copy.text.length < huge.length && huge.startsWith(copy.text))
  assert.equal(copy.fullSize, huge.length, 'the cut copy says how long the original was')
  assert.equal(
    a.events().find((event) => event.text.startsWith('huge paste'))?.text,
    huge,
    'alice keeps it whole',
  )
})

test('a project at its storage budget: up says so, keeps its outbox, and shares it all once the budget is raised', async () => {
  await using world = await syncWorld({ serveArgs: ['--max-project-size', '256KB'] })
  const { a, b } = world
  await attachBoth(world, { lineOnStdin: true })
  await using upA = a.up()
  await using upB = b.up()
  await Promise.all([upA.waitFor('sync-connected'), upB.waitFor('sync-connected')])
  // About 60 × 8 KB: twice the budget.
  const texts = Array.from(
    { length: 60 },
    (_, i) => `budget turn ${i} token${i}q ${'lorem ipsum '.repeat(700)}`,
  )
  for (const text of texts) a.say('alice-budget', text)

  const quota = await upA.waitFor('sync-quota', 60_000)
  assert.equal(quota.limitBytes, 256 * 1024)
  assert.ok(Number(quota.usedBytes) <= 256 * 1024, `used ${quota.usedBytes}`)
  assert.match(String(quota.message), /MAX_PROJECT_BYTES/)
  type Doctor = {
    sections: { name: string; storage?: unknown; outbox?: { events: number }; reachable?: boolean }[]
  }
  const doctor = await a.cliJson<Doctor>(['doctor'])
  const team = doctor.sections.find((section) => section.name === 'team-server')
  assert.equal(team?.reachable, true)
  assert.deepEqual((team?.storage as { limitBytes: number } | undefined)?.limitBytes, 256 * 1024)
  assert.ok((team?.outbox?.events ?? 0) > 0, 'the refused turns wait in the outbox')
  const onBob = () => b.events().filter((event) => event.sourcePath?.includes('/alice/')).length
  assert.ok(onBob() < texts.length, 'not everything got through before the budget was raised')

  await world.restartServer('stop', ['--max-project-size', '64MB'])
  await eventually(() => onBob() === texts.length, 60_000, 'every turn on bob once the budget is raised')
  const said = b.events().flatMap((event) => (event.sourcePath?.includes('/alice/') ? [event.text] : []))
  assert.deepEqual([...said].sort(), [...texts].sort(), 'each turn once, nothing lost')
})

function noteDraft(attachment: Attachment) {
  const id = `note_spent${attachment.clientId.slice(-6)}`
  const at = '2026-11-29T10:00:00.000Z'
  return {
    id,
    type: 'event' as const,
    actor: { human: 'someone@x.dev', vendor: null, sessionId: null },
    at,
    payload: {
      id,
      kind: 'note' as const,
      vendor: 'sangam' as const,
      cliVersion: null,
      sessionId: 'cli',
      author: 'someone@x.dev',
      cwd: null,
      branch: null,
      at,
      sourcePath: null,
      byteOffset: null,
      part: 0,
      toolName: null,
      callId: null,
      text: 'spending the push budget',
      fullSize: 24,
      shareable: true,
    },
  }
}
