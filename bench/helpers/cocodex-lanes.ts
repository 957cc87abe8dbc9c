import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { freshRepo } from './peer-repo.ts'

/** cocodex as its release harness runs it: its daemon up, two joined sessions with `sleep` as the agent. */
export function cocodexLanes(
  dir: string,
  cocodexDir: string,
  env: NodeJS.ProcessEnv,
): {
  alice: string
  bob: string
  sync: (lane: string) => void
  close: () => void
} {
  const path = join(dir, 'repo')
  freshRepo(path)
  const pyEnv = {
    ...env,
    PYTHONPATH: join(cocodexDir, 'src'),
    PYTHONUNBUFFERED: '1',
    COCODEX_NO_TMUX: '1',
    COCODEX_HEADLESS_PROMPT_OK: '1',
  }
  const py = (args: string[], cwd = path) =>
    execFileSync('python3', ['-m', 'cocodex', ...args], { cwd, env: pyEnv, encoding: 'utf8' })
  py(['init', '--main', 'main'])
  const configFile = join(path, '.cocodex', 'config.json')
  const config = JSON.parse(readFileSync(configFile, 'utf8'))
  config.dirty_interval_s = 0.5
  config.developers = Object.fromEntries(
    ['alice', 'bob'].map((name) => [
      name,
      { git_user_name: name, git_user_email: `${name}@example.test`, command: ['sleep', '600'] },
    ]),
  )
  writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`)
  const children: ChildProcess[] = []
  const start = (args: string[]) => {
    children.push(spawn('python3', ['-m', 'cocodex', ...args], { cwd: path, env: pyEnv, stdio: 'ignore' }))
  }
  start(['daemon'])
  waitFor(() => existsSync(join(path, '.cocodex', 'cocodex.sock')))
  for (const name of ['alice', 'bob']) {
    start(['join', name])
    waitFor(() => cocodexConnected(path, name))
  }
  const sync = (lane: string) => void py(['sync'], lane)
  const alice = join(path, '.cocodex', 'worktrees', 'alice')
  const bob = join(path, '.cocodex', 'worktrees', 'bob')
  sync(alice)
  sync(bob)
  return {
    alice,
    bob,
    sync,
    close: () => {
      for (const child of children) child.kill('SIGTERM')
    },
  }
}

function cocodexConnected(path: string, name: string): boolean {
  const out = spawnSync(
    'python3',
    [
      '-c',
      'import sqlite3,sys;r=sqlite3.connect(sys.argv[1]).execute("select connected from sessions where name=?",(sys.argv[2],)).fetchone();print(r[0] if r else 0)',
      join(path, '.cocodex', 'state.sqlite'),
      name,
    ],
    { encoding: 'utf8' },
  )
  return out.stdout.trim() === '1'
}

/** Waits on a condition the peer's own processes bring about (its socket, its sessions joined). */
function waitFor(ok: () => boolean): void {
  const until = Date.now() + 20_000
  while (!ok()) {
    if (Date.now() > until) throw new Error('timed out waiting for cocodex')
    spawnSync('sleep', ['0.1'])
  }
}
