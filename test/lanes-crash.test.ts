import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { laneProject, recoverable } from './helpers/lane-fixture.ts'
import { git } from './helpers/tmp-git-repo.ts'

/**
 * The integrator killed with SIGKILL at each step of a publish (SANGAM_LANE_FAULT), then the next
 * sync: main is the old commit or the new one, never between; no work is lost; the lane publishes.
 */
const directSteps = ['locked', 'snapshot', 'before-publish', 'main-moved', 'published', 'released']
const mergeSteps = ['locked', 'snapshot', 'merged', 'before-publish', 'main-moved', 'published']

for (const step of directSteps) {
  test(`a direct publish killed at "${step}" leaves main old or new, and the next sync finishes it`, async () => {
    await using p = await laneProject()
    const alice = await p.lane('alice')
    p.write(alice, 'a.txt', 'alice work\n')
    const before = p.main()
    const killed = await p.cli(['sync', '--json'], { cwd: alice, env: { SANGAM_LANE_FAULT: step } })
    assert.equal(killed.code, 128, `killed by SIGKILL: ${killed.stderr}`)
    const after = p.main()
    const moved = after !== before
    if (moved) assert.equal(git(p.repo.path, 'show', `${after}:a.txt`), 'alice work')
    assert.ok(
      recoverable(p, 'a.txt', 'alice work') || readFileSync(join(alice, 'a.txt'), 'utf8') === 'alice work\n',
    )
    const next = await p.json<{ outcome: string }>(['sync'], { cwd: alice, code: 0 })
    assert.ok(['published-direct', 'already-synced'].includes(next.outcome), next.outcome)
    assert.equal(git(p.repo.path, 'show', 'main:a.txt'), 'alice work')
    assert.equal(git(p.repo.path, 'status', '--porcelain'), '', 'the main worktree was brought along')
    assert.ok(existsSync(join(p.repo.path, 'a.txt')))
    await p.checkInvariants()
  })
}

for (const step of mergeSteps) {
  test(`a merge publish killed at "${step}" leaves main old or new, and the next sync finishes it`, async () => {
    await using p = await laneProject()
    const alice = await p.lane('alice')
    const bob = await p.lane('bob')
    p.write(alice, 'a.txt', 'alice\n')
    await p.json(['sync'], { cwd: alice, code: 0 })
    p.write(bob, 'b.txt', 'bob work\n')
    const before = p.main()
    const killed = await p.cli(['sync', '--json'], { cwd: bob, env: { SANGAM_LANE_FAULT: step } })
    assert.equal(killed.code, 128, killed.stderr)
    const after = p.main()
    if (after !== before) {
      assert.equal(git(p.repo.path, 'show', `${after}:b.txt`), 'bob work')
      assert.equal(git(p.repo.path, 'show', `${after}:a.txt`), 'alice')
    }
    assert.ok(recoverable(p, 'b.txt', 'bob work') || existsSync(join(bob, 'b.txt')))
    // Another lane's sync meets the interrupted integration first and puts it right.
    const status = await p.json<{ lanes: { name: string; state: string }[] }>(['status'], { code: 0 })
    assert.ok(status.lanes.length === 2)
    const next = await p.json<{ outcome: string }>(['sync'], { cwd: bob, code: 0 })
    assert.ok(['published-merge', 'already-synced', 'published-direct'].includes(next.outcome), next.outcome)
    assert.equal(git(p.repo.path, 'show', 'main:b.txt'), 'bob work')
    assert.equal(git(p.repo.path, 'show', 'main:a.txt'), 'alice')
    assert.equal(git(p.repo.path, 'status', '--porcelain'), '')
    await p.checkInvariants()
  })
}
