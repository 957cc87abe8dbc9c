/**
 * sangam beside its two Python peers on one fixture, interleaved in one run: chat-room 0.8.0 for
 * the room (the PreToolUse and SessionStart hooks, board, post, read, status, targets, ready) and
 * cocodex 1.0.1 for a lane's `sync` (a clean lane catching up). The fixture is a repository of 200
 * files with 20 lane worktrees besides main (one commit each, four with uncommitted work, two
 * pairs touching the same file) and 30 posts in the room; cocodex gets a repository of the same
 * shape with its own two lanes, as its daemon keeps them. Each command runs `RUNS` times (default
 * 9) after one warm run, sangam and the peer alternating which goes first; the table gives the
 * medians and sangam/peer (a ratio, never a budget: the goal is ≤ 0.5×). `targets` and `ready` run
 * again with `sangam up` running (its round's worktree states read, D432), beside the same peer
 * figures. The git processes each sangam command ran are counted once, through a logging `git` on
 * PATH (test/helpers/git-call-log.ts), outside the timed runs.
 *
 * The peers' checkouts come from the environment; a peer whose variable is unset is skipped with
 * a line saying so:
 *   SANGAM_PEER_CHATROOM=<chat-room checkout at v0.8.0>  (runs plugins/chat-room/scripts/room.py)
 *   SANGAM_PEER_COCODEX=<cocodex checkout at v1.0.1>     (runs python3 -m cocodex from its src/)
 *
 *   npm run build && npm run bench:peers
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gitCallLog } from '../test/helpers/git-call-log.ts'
import { cocodexLanes } from './helpers/cocodex-lanes.ts'
import { freshRepo, git, write } from './helpers/peer-repo.ts'
import { type Measured, table } from './helpers/peer-table.ts'
import { percentile } from './helpers/transcript-sentences.ts'

const runs = Number(process.env.RUNS ?? 9)
const root = join(import.meta.dirname, '..')
const cli = join(root, 'dist', 'cli', 'main.js')
const hook = join(root, 'dist', 'hooks', 'agent-hook-main.cjs')
const chatRoomDir = process.env.SANGAM_PEER_CHATROOM
const cocodexDir = process.env.SANGAM_PEER_COCODEX
const chatRoomScript =
  chatRoomDir === undefined ? null : join(chatRoomDir, 'plugins', 'chat-room', 'scripts', 'room.py')
const hasChatRoom = chatRoomScript !== null && existsSync(chatRoomScript)
const hasCocodex = cocodexDir !== undefined && existsSync(join(cocodexDir, 'src', 'cocodex', '__main__.py'))
const lanes = 20
const print = (line: string): void => {
  process.stdout.write(`${line}\n`)
}

if (!existsSync(cli)) {
  process.stderr.write(`${cli} is missing: run npm run build first\n`)
  process.exit(1)
}

const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'sangam-bench-peers-')))
const repo = join(scratch, 'repo')
// NODE_EXTRA_CA_CERTS unset, as on a user's machine: Node reads the file at every start.
const { NODE_EXTRA_CA_CERTS: _ca, ...inherited } = process.env
const env: NodeJS.ProcessEnv = {
  ...inherited,
  HOME: scratch,
  SANGAM_HOME: join(scratch, '.sangam'),
  SANGAM_USER: 'dev@example.com',
  SANGAM_LOG: 'warn',
  CLAUDE_CONFIG_DIR: join(scratch, '.claude'),
  CODEX_HOME: join(scratch, '.codex'),
  CHAT_ROOM_DATA: join(scratch, 'chat-room'),
}
const chatData = ['--data-dir', join(scratch, 'chat-room')]

function run(
  command: string,
  args: readonly string[],
  cwd: string,
  stdin?: string,
  extra?: NodeJS.ProcessEnv,
) {
  const result = spawnSync(command, args, {
    cwd,
    env: extra === undefined ? env : { ...env, ...extra },
    input: stdin,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} in ${cwd}: exit ${result.status}\n${result.stderr}`)
  }
  return result.stdout
}

/** The room's fixture: 20 lanes with a commit each, four dirty, two pairs on one file each. */
function roomFixture(): string[] {
  freshRepo(repo)
  const worktrees: string[] = []
  for (let i = 0; i < lanes; i += 1) {
    const name = `lane-${String(i).padStart(2, '0')}`
    const path = join(scratch, 'wt', name)
    git(repo, 'worktree', 'add', '-q', '-b', name, path)
    // Lanes 0 and 1, and 2 and 3, edit the same file: collisions to find.
    const file = i < 4 ? `src/m${Math.floor(i / 2)}.js` : `src/m${i}.js`
    write(path, file, `export const v = '${name}'\n`)
    git(path, 'commit', '-q', '-am', `${name}: its change`)
    if (i % 5 === 4) write(path, `notes-${name}.md`, 'work in progress\n')
    worktrees.push(path)
  }
  return worktrees
}

interface Row {
  readonly name: string
  readonly sangam: () => void
  readonly peer: (() => void) | null
  readonly peerName: string
}

function hookPayload(event: string, extra: Record<string, unknown>): string {
  return JSON.stringify({
    session_id: '01a2264c-aff5-7b22-ace8-554acdb41e6a',
    transcript_path: join(scratch, 'transcript.jsonl'),
    cwd: repo,
    hook_event_name: event,
    ...extra,
  })
}

const preToolUse = hookPayload('PreToolUse', {
  permission_mode: 'acceptEdits',
  tool_name: 'Edit',
  tool_input: { file_path: join(repo, 'src', 'm7.js'), old_string: 'a', new_string: 'b', replace_all: false },
  tool_use_id: 'toolu_bench',
})
const sessionStart = hookPayload('SessionStart', { source: 'resume' })

const sangam =
  (...args: string[]) =>
  () =>
    void run(process.execPath, [cli, ...args, '--json'], repo)
const chatRoom = (...args: string[]) =>
  hasChatRoom
    ? () => void run('python3', [chatRoomScript as string, ...chatData, ...args, '--cwd', repo], repo)
    : null
const chatRoomHook = (payload: string) =>
  hasChatRoom ? () => void run('python3', [chatRoomScript as string, 'hook'], repo, payload) : null

let posted = 0
function roomRows(): Row[] {
  return [
    {
      name: 'PreToolUse hook',
      sangam: () => void run(process.execPath, [hook, 'claude'], repo, preToolUse),
      peer: chatRoomHook(preToolUse),
      peerName: 'chat-room',
    },
    {
      name: 'SessionStart hook',
      sangam: () => void run(process.execPath, [hook, 'claude'], repo, sessionStart),
      peer: chatRoomHook(sessionStart),
      peerName: 'chat-room',
    },
    { name: 'board', sangam: sangam('board'), peer: chatRoom('board'), peerName: 'chat-room' },
    {
      name: 'post',
      sangam: () => {
        posted += 1
        run(process.execPath, [cli, 'post', `bench says ${posted}`, '--json'], repo)
      },
      peer: hasChatRoom
        ? () =>
            void run(
              'python3',
              [
                chatRoomScript as string,
                ...chatData,
                'post',
                '--cwd',
                repo,
                '--message',
                `bench says ${posted}`,
              ],
              repo,
            )
        : null,
      peerName: 'chat-room',
    },
    {
      name: 'read',
      sangam: sangam('read', '--limit', '50'),
      peer: chatRoom('read', '--limit', '50'),
      peerName: 'chat-room',
    },
    { name: 'status', sangam: sangam('status'), peer: chatRoom('status'), peerName: 'chat-room' },
    {
      name: `targets, ${lanes + 1} worktrees`,
      sangam: sangam('targets'),
      peer: chatRoom('targets'),
      peerName: 'chat-room',
    },
    {
      name: `ready, ${lanes} branches, warm`,
      sangam: sangam('ready'),
      peer: chatRoom('ready'),
      peerName: 'chat-room',
    },
  ]
}

function timeOnce(body: () => void): number {
  const started = performance.now()
  body()
  return performance.now() - started
}

/** Each row `runs` times after a warm run, sangam and the peer alternating which goes first. */
function measure(rows: readonly Row[]): Measured[] {
  for (const row of rows) {
    row.sangam()
    row.peer?.()
  }
  const ours = rows.map((): number[] => [])
  const theirs = rows.map((): number[] => [])
  for (let i = 0; i < runs; i += 1) {
    rows.forEach((row, r) => {
      const peer = row.peer
      const order = i % 2 === 0 ? ['sangam', 'peer'] : ['peer', 'sangam']
      for (const who of order) {
        if (who === 'sangam') ours[r]?.push(timeOnce(row.sangam))
        else if (peer !== null) theirs[r]?.push(timeOnce(peer))
      }
    })
  }
  const median = (values: number[]): number =>
    percentile(
      [...values].sort((a, b) => a - b),
      50,
    )
  return rows.map((row, r) => ({
    name: row.name,
    peerName: row.peerName,
    sangamMs: median(ours[r] ?? []),
    peerMs: row.peer === null ? null : median(theirs[r] ?? []),
    gitCalls: null,
  }))
}

/** The git processes one run of each row's sangam command spawns (outside the timed runs). */
function countGit(rows: readonly Row[], measured: readonly Measured[]): Measured[] {
  const log = gitCallLog(join(scratch, 'git-calls'))
  const saved = env.PATH
  env.PATH = log.path
  try {
    return rows.map((row, r) => {
      log.reset()
      row.sangam()
      return { ...(measured[r] as Measured), gitCalls: log.calls().length }
    })
  } finally {
    env.PATH = saved
  }
}

/** `sync` of a clean lane catching up with main, on each system's own fresh fixture. */
function syncRow(): Measured | null {
  const sangamRoot = join(scratch, 'sync-sangam')
  const sangamRepo = join(sangamRoot, 'repo')
  freshRepo(sangamRepo)
  const sangamEnv = { ...env, HOME: sangamRoot, SANGAM_HOME: join(sangamRoot, '.sangam') }
  const lane = (name: string): string =>
    JSON.parse(
      run(process.execPath, [cli, 'lane', name, '--no-agent', '--json'], sangamRepo, undefined, sangamEnv),
    ).lane.worktree as string
  const ours = { alice: lane('alice'), bob: lane('bob') }
  const sangamSync = (worktree: string) =>
    run(process.execPath, [cli, 'sync', '--json'], worktree, undefined, sangamEnv)
  sangamSync(ours.alice)
  sangamSync(ours.bob)
  const theirs = hasCocodex ? cocodexLanes(join(scratch, 'sync-cocodex'), cocodexDir as string, env) : null
  const times = { sangam: [] as number[], peer: [] as number[] }
  try {
    for (let i = 0; i < runs + 1; i += 1) {
      // Alice publishes a change; bob's sync (timed) catches up with it.
      write(ours.alice, `a${i}.txt`, `alice ${i}\n`)
      sangamSync(ours.alice)
      const sangamMs = timeOnce(() => sangamSync(ours.bob))
      let peerMs: number | null = null
      if (theirs !== null) {
        write(theirs.alice, `a${i}.txt`, `alice ${i}\n`)
        theirs.sync(theirs.alice)
        peerMs = timeOnce(() => theirs.sync(theirs.bob))
      }
      if (i === 0) continue // warm
      times.sangam.push(sangamMs)
      if (peerMs !== null) times.peer.push(peerMs)
    }
  } finally {
    theirs?.close()
  }
  const median = (values: number[]) =>
    percentile(
      [...values].sort((a, b) => a - b),
      50,
    )
  const log = gitCallLog(join(sangamRoot, 'git-calls'))
  write(ours.alice, 'counted.txt', 'alice\n')
  sangamSync(ours.alice)
  run(process.execPath, [cli, 'sync', '--json'], ours.bob, undefined, { ...sangamEnv, PATH: log.path })
  return {
    name: 'sync, catch-up',
    peerName: 'cocodex',
    sangamMs: median(times.sangam),
    peerMs: theirs === null ? null : median(times.peer),
    gitCalls: log.calls().length,
  }
}

/** `sangam up` until its first round is in, so targets and ready read its states. */
async function withDaemon<T>(body: () => T): Promise<T> {
  const up = spawn(process.execPath, [cli, 'up', '--json'], {
    cwd: repo,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  try {
    const until = Date.now() + 60_000
    for (;;) {
      const targets = JSON.parse(run(process.execPath, [cli, 'targets', '--json'], repo)) as {
        states: { source: string }
      }
      if (targets.states.source === 'daemon') break
      if (Date.now() > until) throw new Error('sangam up ran no round within 60 s')
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    return body()
  } finally {
    up.kill('SIGTERM')
    await new Promise((resolve) => up.once('close', resolve))
  }
}

try {
  if (!hasChatRoom) {
    print('chat-room skipped: SANGAM_PEER_CHATROOM is unset or holds no plugins/chat-room/scripts/room.py')
  }
  if (!hasCocodex) print('cocodex skipped: SANGAM_PEER_COCODEX is unset or holds no src/cocodex/__main__.py')
  const load = existsSync('/proc/loadavg') ? readFileSync('/proc/loadavg', 'utf8').split(' ')[0] : '?'
  print(`runs ${runs} per command (medians), load average ${load} at start`)
  roomFixture()
  run(process.execPath, [cli, 'init', '--no-mcp', '--json'], repo)
  for (let i = 0; i < 30; i += 1) {
    run(process.execPath, [cli, 'post', `fixture message ${i}`, '--json'], repo)
    if (hasChatRoom)
      run(
        'python3',
        [chatRoomScript as string, ...chatData, 'post', '--cwd', repo, '--message', `fixture message ${i}`],
        repo,
      )
  }
  // Each session's first SessionStart: the timed ones are a resumed session's.
  run(process.execPath, [hook, 'claude'], repo, hookPayload('SessionStart', { source: 'startup' }))
  if (hasChatRoom)
    run(
      'python3',
      [chatRoomScript as string, 'hook'],
      repo,
      hookPayload('SessionStart', { source: 'startup' }),
    )

  const rows = roomRows()
  const measured = countGit(rows, measure(rows))
  const sync = syncRow()
  const daemonRows: Row[] = [
    { ...(rows[6] as Row), name: `targets, sangam up running` },
    { ...(rows[7] as Row), name: `ready, sangam up running` },
  ]
  const daemonMeasured = await withDaemon(() => countGit(daemonRows, measure(daemonRows)))
  table([...measured, ...daemonMeasured, ...(sync === null ? [] : [sync])], print)
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
