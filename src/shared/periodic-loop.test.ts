import assert from 'node:assert/strict'
import { test } from 'node:test'
import { PeriodicLoop } from './periodic-loop.ts'

/** A promise and its resolver, so a round can be held open until the test lets it go. */
function gate(): { readonly opened: Promise<void>; open(): void } {
  let open = (): void => undefined
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  return { opened, open }
}

test('a nudge during a round is kept: the next round starts without the hour-long nap', async () => {
  const loop = new PeriodicLoop()
  const first = gate()
  const second = gate()
  let rounds = 0
  const running = loop.start(() =>
    loop.every(3_600_000, async () => {
      rounds += 1
      if (rounds === 1) {
        loop.nudge()
        await first.opened
      }
      if (rounds === 2) second.open()
    }),
  )
  first.open()
  await second.opened
  assert.equal(rounds, 2)
  await loop.stop()
  await running
})

test('stop lets the round in hand finish, then the loop ends; a second start answers the same run', async () => {
  const loop = new PeriodicLoop()
  const inRound = gate()
  const release = gate()
  let finished = 0
  const body = (): Promise<void> =>
    loop.every(3_600_000, async () => {
      inRound.open()
      await release.opened
      finished += 1
    })
  const running = loop.start(body)
  assert.equal(loop.start(body), running)
  await inRound.opened
  const stopped = loop.stop()
  assert.equal(loop.signal.aborted, true)
  release.open()
  await stopped
  assert.equal(finished, 1, 'the round in hand finished and no other began')
  await running
})

test('an interval given as a function is asked after each round', async () => {
  const loop = new PeriodicLoop()
  const asked: number[] = []
  let rounds = 0
  await loop.start(() =>
    loop.every(
      () => {
        asked.push(rounds)
        if (rounds === 2) void loop.stop()
        return 0
      },
      () => {
        rounds += 1
      },
    ),
  )
  assert.deepEqual(asked, [1, 2])
})
