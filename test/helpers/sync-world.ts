import assert from 'node:assert/strict'
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startServeWith } from '../../server/test/helpers/serve-process.ts'
import { databasePath } from '../../src/config/data-paths.ts'
import { eventSelect, type StoredEvent, toStoredEvent } from '../../src/memory/store/event-table.ts'
import { silentLogger } from '../../src/shared/logger.ts'
import type { SyncedRecord } from '../../src/sync/protocol/record.ts'
import type { Attachment } from '../../src/sync/services/attachment.ts'
import { SyncHttpClient } from '../../src/sync/services/http-client.ts'
import { claudeHuman } from './capture-transcripts.ts'
import { readStore, type StoreReader } from './read-store.ts'
import { type CliResult, isolatedEnv, runCli, runCliJson } from './run-cli.ts'
import { git, type TmpDir, tmpDir } from './tmp-git-repo.ts'
import { startUp, type UpProcess } from './up-process.ts'

/**
 * Two "machines" on one host for sync tests: each its own HOME (with `~/.claude`, `~/.codex`),
 * SANGAM_HOME and clone of one repository (same remote URL, so the same project id), and one
 * `sangam serve` between them. Every process is the compiled CLI, as users run it.
 */
export const sharedRemote = 'https://github.com/acme/widget.git'

export interface Machine {
  readonly name: string
  readonly home: string
  readonly repo: string
  readonly env: Record<string, string | undefined>
  readonly projectDir: string
  readonly database: string
  cli(args: readonly string[], input?: string): Promise<CliResult>
  cliJson<T = unknown>(args: readonly string[]): Promise<T>
  /** `sangam up --json` on this machine (`text`: `sangam up`, as a person reads it; `env`: more of it). */
  up(options?: { text?: boolean; env?: Record<string, string> }): UpProcess
  /** Appends a human turn to this machine's Claude Code transcript `<session>.jsonl`; returns its path. */
  say(session: string, text: string): string
  /** How many events hold `word` (a read-only FTS query on the replica). */
  search(word: string): number
  events(): StoredEvent[]
}

/** The sync server of a world: a `sangam serve` process, or workerd run from the test with other limits. */
export interface WorldServer {
  readonly url: string
  /** An orderly stop. */
  stop(): Promise<unknown>
  /** serve and its workerd killed together, no shutdown. */
  crash(): Promise<unknown>
}

export interface SyncWorldOptions {
  /** The Worker's vars (its limits, e.g. `{ PUSHES_PER_SECOND: '5' }`); the server then cannot restart. */
  readonly vars?: Readonly<Record<string, string>> | undefined
  /** More flags for `sangam serve` (`--max-project-size 256KB`); not with `vars`. */
  readonly serveArgs?: readonly string[] | undefined
  /** How many machines (2 by default): a team starting together is ten or twenty. */
  readonly machines?: number | undefined
}

export interface SyncWorld extends AsyncDisposable {
  readonly root: TmpDir
  readonly serverDir: string
  readonly server: WorldServer
  readonly a: Machine
  readonly b: Machine
  /** Every machine, `a` and `b` first. */
  readonly machines: readonly Machine[]
  /**
   * Stops the server (SIGTERM, or a crash) and starts it again on the same port and data, with
   * `serveArgs` instead of the world's when given.
   */
  restartServer(how: 'stop' | 'crash', serveArgs?: readonly string[]): Promise<void>
  /** Every process the world started, for a test that greps their output. */
  readonly outputs: string[]
}

export async function syncWorld(options: SyncWorldOptions = {}): Promise<SyncWorld> {
  const root = tmpDir('sangam-sync-')
  const origin = join(root.path, 'origin.git')
  git(root.path, 'init', '-q', '--bare', '-b', 'main', origin)
  const seed = join(root.path, 'seed')
  git(root.path, 'init', '-q', '-b', 'main', seed)
  git(
    seed,
    '-c',
    'user.email=seed@x.dev',
    '-c',
    'user.name=seed',
    'commit',
    '-q',
    '--allow-empty',
    '-m',
    'initial',
  )
  git(seed, 'push', '-q', origin, 'main')
  const outputs: string[] = []
  const serverDir = join(root.path, 'server')
  mkdirSync(serverDir)
  const serve = (port: string, args: readonly string[]) =>
    startServeWith(['--port', port, '--data', join(serverDir, 'data'), ...args], serverDir)
  let server: WorldServer =
    options.vars === undefined
      ? await serve('0', options.serveArgs ?? [])
      : await inProcessServer(join(serverDir, 'data'), options.vars)
  const port = new URL(server.url).port
  const machines: Machine[] = []
  for (const name of machineNames(options.machines ?? 2))
    machines.push(await machine(root.path, name, origin, outputs))
  const [a, b] = machines as [Machine, Machine]
  const world: SyncWorld = {
    root,
    serverDir,
    get server() {
      return server
    },
    a,
    b,
    machines,
    outputs,
    async restartServer(how, serveArgs = options.serveArgs ?? []) {
      if (options.vars !== undefined) throw new Error('a server with custom vars cannot restart')
      if (how === 'crash') await server.crash()
      else await server.stop()
      server = await serve(port, serveArgs)
    },
    async [Symbol.asyncDispose]() {
      await server.stop().catch(() => undefined)
      await root[Symbol.asyncDispose]()
    },
  }
  return world
}

/** alice, bob, carol, …; past the list, `dev11`, `dev12`, … */
function machineNames(count: number): string[] {
  const names = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy']
  return Array.from({ length: Math.max(2, count) }, (_, index) => names[index] ?? `dev${index + 1}`)
}

async function inProcessServer(
  dataDir: string,
  vars: Readonly<Record<string, string>>,
): Promise<WorldServer> {
  // Loaded only here: Miniflare takes seconds to load, and most worlds run `sangam serve` instead.
  const { startLocalServer } = await import('../../src/serve/local-server.ts')
  const local = await startLocalServer({ host: '127.0.0.1', port: 0, dataDir, log: silentLogger, vars })
  return { url: local.url, stop: () => local.close(), crash: () => local.close() }
}

async function machine(root: string, name: string, origin: string, outputs: string[]): Promise<Machine> {
  const home = join(root, name)
  mkdirSync(home)
  const repo = join(home, 'widget')
  git(root, 'clone', '-q', origin, repo)
  git(repo, 'config', 'user.email', `${name}@x.dev`)
  git(repo, 'config', 'user.name', name)
  git(repo, 'remote', 'set-url', 'origin', sharedRemote)
  const env = isolatedEnv(home)
  const init = await runCliJson<{ projectId: string; database: string }>(['init', '--no-mcp'], {
    cwd: repo,
    env,
  })
  const transcripts = join(home, '.claude', 'projects', `-${name}-widget`)
  mkdirSync(transcripts, { recursive: true })
  const read = <T>(query: (db: StoreReader) => T): T => readStore(init.database, query)
  const cli = async (args: readonly string[], input?: string): Promise<CliResult> => {
    const result = await runCli(args, { cwd: repo, env, input })
    outputs.push(result.stdout, result.stderr)
    return result
  }
  return {
    name,
    home,
    repo,
    env,
    projectDir: join(home, '.sangam', 'projects', init.projectId),
    database: databasePath(join(home, '.sangam'), init.projectId),
    cli,
    async cliJson<T>(args: readonly string[]) {
      const result = await cli([...args, '--json'])
      if (result.code !== 0)
        throw new Error(`${name}: sangam ${args.join(' ')} exited ${result.code}: ${result.stderr}`)
      return JSON.parse(result.stdout) as T
    },
    up(options = {}) {
      const up = startUp([], {
        cwd: repo,
        env: { ...env, SANGAM_LOG: 'info', ...options.env },
        text: options.text,
      })
      up.child.on('exit', () => outputs.push(JSON.stringify(up.statuses), up.stderr()))
      return up
    },
    say(session, text) {
      const path = join(transcripts, `${session}.jsonl`)
      appendFileSync(path, claudeHuman({ cwd: repo, session, text, at: new Date().toISOString() }))
      return path
    },
    search: (word) =>
      read(
        (db) =>
          (
            db.prepare('SELECT count(*) AS n FROM event_fts WHERE event_fts MATCH ?').get(word) as {
              n: number
            }
          ).n,
      ),
    events: () =>
      read((db) => (db.prepare(`${eventSelect} ORDER BY e.seq`).all() as unknown[]).map(toStoredEvent)),
  }
}

/**
 * A attaches to the team server (`init --server urlA`) and B joins with A's connection line, in
 * which `urlA` becomes `urlB` (each machine behind its own proxy). `lineOnStdin` hands B the line
 * on stdin, as the docs advise (it holds the join token), rather than as an argument.
 */
export async function attachBoth(
  world: SyncWorld,
  options: { urlA?: string; urlB?: string; lineOnStdin?: boolean } = {},
): Promise<void> {
  const urlA = options.urlA ?? world.server.url
  const urlB = options.urlB ?? urlA
  await world.a.cliJson(['init', '--no-mcp', '--server', urlA])
  const line = (await runCli(['connection'], { cwd: world.a.repo, env: world.a.env })).stdout.trim()
  const forB = line.replace(urlA, urlB)
  const joined =
    options.lineOnStdin === true ? await world.b.cli(['join'], forB) : await world.b.cli(['join', forB])
  assert.equal(joined.code, 0, joined.stderr)
}

/** Both machines' daemons, up and connected to the team server; disposing stops B's, then A's. */
export interface ConnectedDaemons extends AsyncDisposable {
  readonly a: UpProcess
  readonly b: UpProcess
}

/**
 * Attaches both machines (`attachBoth`), starts both daemons and waits until each has connected.
 * A daemon that does not connect fails the caller, with both stopped.
 */
export async function connectedDaemons(
  world: SyncWorld,
  options: Parameters<typeof attachBoth>[1] = {},
): Promise<ConnectedDaemons> {
  await attachBoth(world, options)
  const a = world.a.up()
  const b = world.b.up()
  const stop = async () => {
    try {
      await b.stop()
    } finally {
      await a.stop()
    }
  }
  try {
    await Promise.all([a.waitFor('sync-connected'), b.waitFor('sync-connected')])
  } catch (error) {
    await stop()
    throw error
  }
  return { a, b, [Symbol.asyncDispose]: stop }
}

/** Every record on the team server, read with `machine`'s attachment. */
export async function serverRecords(machine: Machine): Promise<SyncedRecord[]> {
  const attachment = JSON.parse(readFileSync(join(machine.projectDir, 'sync.json'), 'utf8')) as Attachment
  const http = new SyncHttpClient(attachment)
  const records: SyncedRecord[] = []
  for (let hasMore = true; hasMore; ) {
    const answer = await http.pull(records.at(-1)?.gseq ?? 0, 1000)
    assert.ok(answer.ok)
    records.push(...answer.value.records)
    hasMore = answer.value.hasMore
  }
  return records
}
