import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { IntegrationLock } from '../../src/services/lanes/integration-lock.ts'

/** One integration lock under test, and the time it sees. */
export interface LockFixture extends AsyncDisposable {
  readonly lock: IntegrationLock
  /** A second handle on the same lock (another process, another machine). */
  readonly other: IntegrationLock
  advance(ms: number): Promise<void>
}

/**
 * What every IntegrationLock does (the store's, the team server's): exactly one holder, a token
 * that increases with every grant, a heartbeat only the current tenure may give, a release a
 * taken-over holder cannot make for its successor.
 */
export function integrationLockContract(name: string, make: () => Promise<LockFixture>): void {
  test(`${name}: one holder at a time; the refused caller is told who holds it`, async () => {
    await using f = await make()
    const first = await f.lock.acquire({ lane: 'alice', owner: 'alice@x.dev', task: 't1' })
    assert.equal(first.granted, true)
    const second = await f.other.acquire({ lane: 'bob', owner: 'bob@x.dev', task: null })
    assert.equal(second.granted, false)
    assert.equal(second.holder.lane, 'alice')
    assert.equal(second.holder.task, 't1')
    assert.deepEqual(await f.other.current(), first.holder)
  })

  test(`${name}: a release frees it and the next grant has a greater token`, async () => {
    await using f = await make()
    const first = await f.lock.acquire({ lane: 'alice', owner: 'a', task: null })
    await f.lock.release(first.holder)
    assert.equal(await f.lock.current(), null)
    const next = await f.other.acquire({ lane: 'bob', owner: 'b', task: null })
    assert.equal(next.granted, true)
    assert.ok(next.holder.token > first.holder.token)
  })

  test(`${name}: a heartbeat moves heartbeatAt, not since; a taken-over tenure can neither beat nor release`, async () => {
    await using f = await make()
    const first = await f.lock.acquire({ lane: 'alice', owner: 'a', task: 't1' })
    await f.advance(60_000)
    assert.equal(await f.lock.heartbeat(first.holder), true)
    const beaten = await f.lock.current()
    assert.equal(beaten?.since, first.holder.since)
    assert.equal(beaten?.heartbeatAt, first.holder.heartbeatAt + 60_000)
    const taken = await f.other.takeOver({ lane: 'bob', owner: 'b', reason: 'alice is away' })
    assert.equal(taken.lane, 'bob')
    assert.ok(taken.token > first.holder.token)
    assert.equal(await f.lock.heartbeat(first.holder), false)
    await f.lock.release(first.holder)
    assert.equal((await f.lock.current())?.lane, 'bob', "alice's late release does not free bob's lock")
  })
}
