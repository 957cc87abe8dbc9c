import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { ClaimResult } from '../src/leases/protocol/lease.ts'
import { isolatedEnv, runCli, runCliJson } from './helpers/run-cli.ts'
import { tmpDir, tmpGitRepo } from './helpers/tmp-git-repo.ts'

const claimers = 200

test(`${claimers} concurrent sangam claim processes on one pattern: exactly one wins, every other exits 5 naming it`, async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  // The project exists before the race, as it does once anyone ran sangam here.
  await runCliJson(['init'], { cwd: repo.path, env: isolatedEnv(home.path) })
  const results = await Promise.all(
    Array.from({ length: claimers }, (_, i) =>
      runCli(['claim', 'src/shared/**', '--reason', `claimer ${i}`, '--json'], {
        cwd: repo.path,
        env: isolatedEnv(home.path, { SANGAM_USER: `dev${i}@x.dev` }),
        timeoutMs: 280_000,
      }),
    ),
  )
  const winners = results.filter((result) => result.code === 0)
  const losers = results.filter((result) => result.code === 5)
  const other = results.filter((result) => result.code !== 0 && result.code !== 5)
  assert.deepEqual(
    other.map((result) => `${result.code}: ${result.stderr}`),
    [],
    'every claimer got an answer',
  )
  assert.equal(winners.length, 1)
  const won = JSON.parse(winners[0]?.stdout ?? '') as ClaimResult
  assert.ok(won.granted)
  const winner = won.leases[0]?.holder.human
  for (const loser of losers) {
    const body = JSON.parse(loser.stdout) as ClaimResult
    assert.ok(!body.granted)
    assert.equal(body.conflicts[0]?.lease.holder.human, winner)
    assert.equal(body.conflicts[0]?.lease.token, won.leases[0]?.token)
  }
})
