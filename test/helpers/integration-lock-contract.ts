import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { IntegrationLock } from '../../src/lanes/services/integration-lock.ts'

/**
 * What every IntegrationLock must do, run against each implementation (the machine's store, the
 * team server): one holder at most, tenures named by growing tokens, and a stale holder's
 * takeover ending its tenure for good. `locks` are views of one lock from different processes or
 * machines; `advance` moves every clock involved.
 */
export interface LockWorld extends AsyncDisposable {
  readonly locks: readonly IntegrationLock[]
  /** Past this silence a holder may be taken over. */
  readonly staleAfterMs: number
  advance(ms: number): Promise<void>
}

export function integrationLockContract(name: string, make: () => Promise<LockWorld>): void {
  test(`${name}: of twenty lanes acquiring at once through every view, exactly one is granted`, async () => {
    await using world = await make()
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        view(world, index).acquire({ lane: `lane-${index}`, owner: `dev${index}@example.com`, task: null }),
      ),
    )
    const granted = answers.filter((answer) => answer.granted)
    assert.equal(granted.length, 1)
    for (const answer of answers) assert.equal(answer.holder.token, granted[0]?.holder.token)
    for (const lock of world.locks) assert.equal((await lock.current())?.token, granted[0]?.holder.token)
  })

  test(`${name}: heartbeats and releases count only for the tenure that holds the lock`, async () => {
    await using world = await make()
    const first = await view(world, 0).acquire({ lane: 'a', owner: 'a@example.com', task: 'task-a' })
    assert.ok(first.granted)
    assert.equal(await view(world, 1).heartbeat({ ...first.holder, task: 'task-a2' }), true)
    assert.equal((await view(world, 0).current())?.task, 'task-a2')
    await view(world, 1).release(first.holder)
    assert.equal(await view(world, 0).current(), null)
    assert.equal(await view(world, 0).heartbeat(first.holder), false)
    const second = await view(world, 1).acquire({ lane: 'b', owner: 'b@example.com', task: null })
    assert.ok(second.granted)
    assert.ok(second.holder.token > first.holder.token)
    // The ended tenure can neither keep nor free its successor's lock.
    await view(world, 0).release(first.holder)
    assert.equal((await view(world, 0).current())?.token, second.holder.token)
  })

  test(`${name}: a stale holder taken over keeps nothing: a larger token, its heartbeat dead`, async () => {
    await using world = await make()
    const held = await view(world, 0).acquire({ lane: 'a', owner: 'a@example.com', task: 'task-a' })
    assert.ok(held.granted)
    await world.advance(world.staleAfterMs + 1000)
    const taken = await view(world, 1).takeOver({
      lane: 'b',
      owner: 'b@example.com',
      reason: 'a went silent',
    })
    assert.match(taken.lane, /^b/)
    assert.ok(taken.token > held.holder.token)
    assert.equal(await view(world, 0).heartbeat(held.holder), false)
    await view(world, 0).release(held.holder)
    assert.equal((await view(world, 0).current())?.token, taken.token)
    const again = await view(world, 0).acquire({ lane: 'a', owner: 'a@example.com', task: null })
    assert.equal(again.granted, false)
  })
}

function view(world: LockWorld, index: number): IntegrationLock {
  const lock = world.locks[index % world.locks.length]
  assert.ok(lock)
  return lock
}
