import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { type LaneProject, laneProject } from './helpers/lane-fixture.ts'
import { isolatedEnv } from './helpers/run-cli.ts'
import { git } from './helpers/tmp-git-repo.ts'
import { startUp } from './helpers/up-process.ts'

/**
 * Main moved by the routes the guard hooks cannot see (D300, D301): hooks switched off for one
 * command (`-c core.hooksPath`, `GIT_CONFIG_PARAMETERS`), the ref file written by hand, git run
 * with the guard's own token. sangam records the main it last moved; status, lane, ready, the
 * board and the daemon say so, and sync refuses to build on it until a person accepts it or
 * restores the recorded commit, each with the exact command.
 */
interface Outside {
  where: string
  branch: string
  commit: string | null
  recorded: string
  accept: string | null
  restore: string
}
interface Refused {
  error?: { code: string; message: string; next: string }
  outcome?: string
}

/** Runs git in the main worktree as a person at a terminal would, hooks and all. */
function gitAsPerson(p: LaneProject, env: Record<string, string>, ...args: string[]): void {
  const run = spawnSync('git', args, {
    cwd: p.repo.path,
    env: { ...(isolatedEnv(p.home.path) as NodeJS.ProcessEnv), ...env },
    encoding: 'utf8',
  })
  assert.equal(run.status, 0, `git ${args.join(' ')}: ${run.stderr}`)
}

/** A commit on main in the main worktree, through a route the guard does not see. */
function commitOnMain(
  p: LaneProject,
  file: string,
  env: Record<string, string>,
  ...config: string[]
): string {
  writeFileSync(join(p.repo.path, file), `${file}\n`)
  git(p.repo.path, 'add', file)
  gitAsPerson(p, env, ...config, 'commit', '-q', '-m', `outside: ${file}`)
  return p.main()
}

async function refusedOutside(p: LaneProject, lane: string, outside: string, recorded: string) {
  const refused = await p.json<Refused>(['sync'], { cwd: lane, code: 12 })
  assert.equal(refused.error?.code, 'main-moved-outside', JSON.stringify(refused))
  assert.ok(refused.error?.message.includes(outside), 'the refusal names the commit')
  assert.ok(refused.error?.message.includes(recorded), 'and the one sangam last moved main to')
  assert.ok(refused.error?.next.includes(`sangam sync --accept-main ${outside.slice(0, 12)}`))
  assert.equal(p.main(), outside, 'a refused sync moves nothing')
  assert.equal(git(p.repo.path, 'rev-parse', `refs/sangam/outside/${outside}`), outside, 'kept for a restore')
  return refused.error
}

test('every route around the guard is noticed by status, lane, ready and the board, and sync refuses it until accepted or restored', async () => {
  await using p = await laneProject()
  const alice = await p.lane('alice')
  p.write(alice, 'a.txt', 'one\n')
  assert.equal((await p.json<Refused>(['sync'], { cwd: alice, code: 0 })).outcome, 'published-direct')
  const token = /token=([0-9a-f]+)/.exec(
    readFileSync(join(p.repo.path, '.git', 'sangam', 'main-guard'), 'utf8'),
  )?.[1]
  assert.ok(token)

  // 1. `git -c core.hooksPath=/dev/null commit`: accepted.
  let recorded = p.main()
  let outside = commitOnMain(p, 'one.txt', {}, '-c', 'core.hooksPath=/dev/null')
  const status = await p.json<{ mainOutside: Outside | null }>(['status'], { code: 0 })
  assert.equal(status.mainOutside?.where, 'here')
  assert.equal(status.mainOutside?.commit, outside)
  assert.equal(status.mainOutside?.recorded, recorded)
  assert.equal(status.mainOutside?.accept, `sangam sync --accept-main ${outside.slice(0, 12)}`)
  const text = await p.cli(['status'])
  assert.match(
    text.stdout,
    new RegExp(`main moved outside sangam: it is at ${outside.slice(0, 12)}, not ${recorded.slice(0, 12)}`),
  )
  const entered = await p.json<{ warnings: string[] }>(['lane', 'alice'], { code: 0, user: 'alice@x.dev' })
  assert.match(entered.warnings.join('\n'), /main moved outside sangam/)
  const ready = await p.json<{ mainOutside: Outside | null }>(['ready'], { code: 0 })
  assert.equal(ready.mainOutside?.commit, outside)
  const board = await p.cli(['board'])
  assert.match(board.stdout, /main moved outside sangam/)
  p.write(alice, 'a.txt', 'two\n')
  await refusedOutside(p, alice, outside, recorded)
  const wrong = await p.json<Refused>(['sync', '--accept-main', recorded.slice(0, 12)], {
    cwd: alice,
    code: 12,
  })
  assert.equal(wrong.error?.code, 'nothing-to-accept', 'only the commit main is at can be accepted')
  const accepted = await p.json<Refused>(['sync', '--accept-main', outside.slice(0, 12)], {
    cwd: alice,
    code: 0,
  })
  assert.equal(accepted.outcome, 'published-merge', 'accepted, then built on')
  assert.equal((await p.json<{ mainOutside: unknown }>(['status'], { code: 0 })).mainOutside, null)
  const log = await p.json<{ events: { type: string; payload: { commit?: string } }[] }>(['log'], { code: 0 })
  assert.ok(log.events.some((event) => event.type === 'main.accepted' && event.payload.commit === outside))

  // 2. GIT_CONFIG_PARAMETERS: restored with the command sync gave.
  recorded = p.main()
  outside = commitOnMain(p, 'two.txt', { GIT_CONFIG_PARAMETERS: "'core.hookspath'='/dev/null'" })
  p.write(alice, 'a.txt', 'three\n')
  const refused = await refusedOutside(p, alice, outside, recorded)
  const restore = /or restores [0-9a-f]{12}: (.*)$/.exec(refused?.next ?? '')?.[1]
  assert.ok(restore, refused?.next)
  execFileSync('sh', ['-c', restore], { env: { ...process.env } })
  assert.equal(p.main(), recorded, 'the restore command put the recorded commit back')
  assert.equal(git(p.repo.path, 'status', '--porcelain'), '', 'and the main worktree with it')
  assert.equal((await p.json<Refused>(['sync'], { cwd: alice, code: 0 })).outcome, 'published-direct')

  // 3. `.git/refs/heads/main` written by hand (a lane's commit): refused, restored.
  recorded = p.main()
  p.write(alice, 'b.txt', 'by hand\n')
  const handMade = p.commit(alice, 'made in the lane')
  writeFileSync(join(p.repo.path, '.git', 'refs', 'heads', 'main'), `${handMade}\n`)
  const byHand = await refusedOutside(p, alice, handMade, recorded)
  execFileSync('sh', ['-c', /or restores [0-9a-f]{12}: (.*)$/.exec(byHand?.next ?? '')?.[1] ?? 'false'])
  assert.equal(p.main(), recorded)

  // 4. git run with the guard's own token: refused until accepted.
  recorded = p.main()
  outside = commitOnMain(p, 'four.txt', { SANGAM_INTEGRATOR: token })
  await refusedOutside(p, alice, outside, recorded)
  const again = await p.json<Refused>(['sync', '--accept-main', outside], { cwd: alice, code: 0 })
  assert.ok(again.outcome?.startsWith('published'), JSON.stringify(again))
  await p.checkInvariants()
})

test('the daemon says once that main moved outside sangam, naming the commit', async () => {
  await using p = await laneProject()
  const alice = await p.lane('alice')
  p.write(alice, 'a.txt', 'one\n')
  await p.json(['sync'], { cwd: alice, code: 0 })
  const recorded = p.main()
  const outside = commitOnMain(p, 'hand.txt', {}, '-c', 'core.hooksPath=/dev/null')
  await using up = startUp([], {
    cwd: p.repo.path,
    env: isolatedEnv(p.home.path, { SANGAM_USER: 'dev@example.com' }),
  })
  const said = await up.waitFor('main-outside')
  assert.equal(said.commit, outside)
  assert.equal(said.recorded, recorded)
  assert.equal(said.where, 'here')
})
