import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { killAllServes } from '../server/test/helpers/serve-process.ts'
import { captureWorld, claudeHuman } from './helpers/capture-transcripts.ts'
import { attachBoth, syncWorld } from './helpers/sync-world.ts'
import { eventually, startUp } from './helpers/up-process.ts'

/**
 * `sangam up` prints what a person should know or act on, and the rest (each capture, each push,
 * each record received, its own records coming back) only in the debug log.
 */
after(killAllServes)

test('captures while up runs print nothing; they are in the debug log', async () => {
  await using w = await captureWorld()
  const cwd = w.repo.path
  const path = w.claude('live.jsonl', claudeHuman({ cwd, session: 'l1', text: 'before up' }))
  await using up = startUp([], { cwd, env: { ...w.env, SANGAM_LOG: 'debug' }, text: true })
  await eventually(() => up.stdout().includes('caught up'), 30_000, 'caught up')
  for (let index = 0; index < 3; index++) {
    w.append(path, claudeHuman({ cwd, session: 'l1', text: `while up runs ${index}` }))
    await eventually(() => w.events().length === index + 2, 15_000, `turn ${index}`)
  }
  await eventually(() => (up.stderr().match(/debug: captured/g) ?? []).length >= 3, 15_000, 'debug lines')
  assert.equal(await up.stop(), 0)
  assert.doesNotMatch(up.stdout(), /captured/)
  assert.match(up.stdout(), /^sangam up: project/m)
  assert.match(up.stdout(), /^stopped$/m)
})

test('on a team, up says it connected, once, and not every record shared or received (nor its own coming back)', async () => {
  await using world = await syncWorld()
  const { a, b } = world
  await attachBoth(world)
  await using upA = a.up({ text: true, env: { SANGAM_LOG: 'debug' } })
  await using upB = b.up()
  await upB.waitFor('sync-connected')
  await eventually(() => /connected/.test(upA.stdout()), 30_000, 'A connected')
  for (let index = 0; index < 3; index++) {
    a.say('alice-session', `alice says quokka${index}`)
    b.say('bob-session', `bob says wombat${index}`)
  }
  await eventually(() => b.search('quokka0') + b.search('quokka2') === 2, 30_000, "alice's turns on bob")
  await eventually(() => a.search('wombat0') + a.search('wombat2') === 2, 30_000, "bob's turns on alice")
  // Debug has each of them: they were made, and are only not printed.
  await eventually(
    () => /debug: shared \d+ record/.test(upA.stderr()) && /debug: received \d+ record/.test(upA.stderr()),
    15_000,
    'the debug lines',
  )
  assert.equal(await upA.stop(), 0)
  const printed = upA.stdout()
  assert.equal((printed.match(/connected/g) ?? []).length, 1, printed)
  assert.doesNotMatch(printed, /shared \d+ record|received \d+ record|captured/, printed)
})
