import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { killAllServes } from '../server/test/helpers/serve-process.ts'
import type { TeamServerSection } from '../src/sync/services/team-server-section.ts'
import { syncWorld } from './helpers/sync-world.ts'
import { eventually } from './helpers/up-process.ts'

/** `sangam doctor` says whether this checkout is attached to a team server, and how it stands with it. */
after(killAllServes)

type Doctor = { sections: { name: string }[] }
const teamServer = (doctor: Doctor): TeamServerSection => {
  const section = doctor.sections.find((candidate) => candidate.name === 'team-server')
  assert.ok(section, `no team-server section in ${JSON.stringify(doctor.sections.map((s) => s.name))}`)
  return section as TeamServerSection
}

test('doctor: solo, attached and in step, then the server gone with work waiting', async () => {
  await using world = await syncWorld()
  const { a } = world
  const solo = teamServer(await a.cliJson<Doctor>(['doctor']))
  assert.equal(solo.attached, false)
  assert.equal(solo.status, 'ok')
  assert.equal(solo.reachable, null)

  await a.cliJson(['init', '--no-mcp', '--server', world.server.url])
  {
    await using up = a.up()
    await up.waitFor('sync-connected')
    a.say('alice-doctor', 'a turn the team gets')
    // Everything shared before the daemon stops: the turn, and the records its capture queued (the
    // session in the room); `connection`'s pending counts events only.
    await eventually(
      async () => {
        if (a.search('team') !== 1) return false
        const outbox = teamServer(await a.cliJson<Doctor>(['doctor'])).outbox
        return outbox?.events === 0 && outbox.records === 0
      },
      60_000,
      'the turn and its records shared',
    )
  }
  const inStep = teamServer(await a.cliJson<Doctor>(['doctor']))
  assert.equal(inStep.attached, true)
  assert.equal(inStep.url, world.server.url)
  assert.equal(inStep.reachable, true, inStep.problem ?? '')
  assert.ok((inStep.headGseq ?? 0) >= 1)
  assert.equal(inStep.behind, (inStep.headGseq ?? 0) - (inStep.cursor ?? 0))
  assert.notEqual(inStep.lastPushedAt, null, 'the push is remembered')
  assert.deepEqual(inStep.outbox, { events: 0, records: 0 })
  assert.equal(inStep.storage?.limitBytes, 1024 ** 3)
  assert.ok((inStep.storage?.usedBytes ?? 0) > 0)

  await world.server.stop()
  a.say('alice-doctor', 'said while the server is gone')
  const gone = teamServer(await a.cliJson<Doctor>(['doctor']))
  assert.equal(gone.reachable, false)
  assert.equal(gone.status, 'warn')
  assert.match(gone.problem ?? '', /could not reach the sync server/)
  assert.equal(gone.outbox?.events, 1, 'the new turn waits')
  assert.ok(
    gone.notes.some((note) => /sangam up is not running: 1 record\(s\) wait to be shared/.test(note)),
    gone.notes.join('\n'),
  )
  const text = await a.cli(['doctor'])
  assert.match(text.stdout, /^team server warn: /m)
})
