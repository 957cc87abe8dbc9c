import assert from 'node:assert/strict'
import { test } from 'node:test'
import { NudgeableSleep } from './nudgeable-sleep.ts'

test('a nudge ends the sleep at once; without one it lasts its time', async () => {
  const nap = new NudgeableSleep()
  const never = new AbortController().signal
  const started = performance.now()
  const asleep = nap.sleep(60_000, never)
  nap.nudge()
  await asleep
  assert.ok(performance.now() - started < 1000)

  const timed = performance.now()
  await nap.sleep(30, never)
  assert.ok(performance.now() - timed >= 25)
})

test('a nudge with nobody asleep is dropped, and an aborted signal skips the sleep', async () => {
  const nap = new NudgeableSleep()
  nap.nudge()
  const timed = performance.now()
  await nap.sleep(30, new AbortController().signal)
  assert.ok(performance.now() - timed >= 25, 'an earlier nudge must not cut a later sleep short')

  const stopped = new AbortController()
  stopped.abort()
  const started = performance.now()
  await nap.sleep(60_000, stopped.signal)
  assert.ok(performance.now() - started < 1000)
})
