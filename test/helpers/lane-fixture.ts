import assert from 'node:assert/strict'
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { openConnection } from '../../src/store/connection.ts'
import type { Db } from '../../src/store/db.ts'
import { type CliResult, isolatedEnv, runCli } from './run-cli.ts'
import { git, type TmpDir, type TmpRepo, tmpDir, tmpGitRepo } from './tmp-git-repo.ts'

/** A project with lanes: a real repository, its own SANGAM_HOME, and the compiled CLI. */
export interface LaneProject extends AsyncDisposable {
  readonly repo: TmpRepo
  readonly home: TmpDir
  /** Runs `sangam <args>` in `cwd` (default: the main worktree) as `user`. */
  cli(
    args: readonly string[],
    options?: { cwd?: string; user?: string; env?: Record<string, string> },
  ): Promise<CliResult>
  /** Runs with --json and parses stdout (a refusal's `{error}` too); asserts the exit code when given. */
  json<T = Record<string, unknown>>(
    args: readonly string[],
    options?: { cwd?: string; user?: string; code?: number; env?: Record<string, string> },
  ): Promise<T>
  /** Creates lane `name` (a human's lane unless `agent` is given) and answers its worktree. */
  lane(name: string, agent?: string): Promise<string>
  /**
   * `first` publishes its edit of `src/app.js`; `second` then edits the same line and syncs, which
   * starts a semantic merge task. Answers the second sync's JSON.
   */
  conflict<T = Record<string, unknown>>(
    first: string,
    second: string,
    options?: { env?: Record<string, string> },
  ): Promise<T>
  main(): string
  head(worktree: string): string
  write(worktree: string, path: string, content: string): void
  commit(worktree: string, message: string): string
  db<T>(read: (db: Db) => T): T
  refs(prefix?: string): string[]
  /** The invariants every scenario keeps (the seed's safety invariants). */
  checkInvariants(): Promise<void>
}

export async function laneProject(): Promise<LaneProject> {
  const home = tmpDir()
  const repo = tmpGitRepo()
  repo.write('src/app.js', 'export function greet() {\n  return "hello"\n}\n')
  repo.commit('app')
  const dbPath = () => {
    const projects = join(home.path, '.sangam', 'projects')
    const [id] = readdirSync(projects)
    return join(projects, id ?? '', 'sangam.db')
  }
  const project: LaneProject = {
    repo,
    home,
    cli: (args, options = {}) =>
      runCli(args, {
        cwd: options.cwd ?? repo.path,
        env: isolatedEnv(home.path, { SANGAM_USER: options.user ?? 'dev@example.com', ...options.env }),
      }),
    async json(args, options = {}) {
      const result = await project.cli([...args, '--json'], options)
      if (options.code !== undefined)
        assert.equal(
          result.code,
          options.code,
          `sangam ${args.join(' ')}: ${result.stdout}\n${result.stderr}`,
        )
      return JSON.parse(result.stdout)
    },
    async lane(name, agent) {
      const entered = await project.json<{ lane: { worktree: string } }>(
        ['lane', name, ...(agent === undefined ? ['--no-agent'] : ['--agent', agent])],
        { code: 0, user: `${name}@x.dev` },
      )
      return entered.lane.worktree
    },
    async conflict(first, second, options = {}) {
      project.write(first, 'src/app.js', `${basename(first)}\n`)
      await project.json(['sync'], { cwd: first, code: 0 })
      project.write(second, 'src/app.js', `${basename(second)}\n`)
      return project.json(['sync'], { cwd: second, code: 0, ...options })
    },
    main: () => git(repo.path, 'rev-parse', 'refs/heads/main'),
    head: (worktree) => git(worktree, 'rev-parse', 'HEAD'),
    write: (worktree, path, content) => {
      mkdirSync(dirname(join(worktree, path)), { recursive: true })
      writeFileSync(join(worktree, path), content)
    },
    commit(worktree, message) {
      git(worktree, 'add', '-A')
      git(worktree, 'commit', '-q', '-m', message)
      return git(worktree, 'rev-parse', 'HEAD')
    },
    db(read) {
      const db = openConnection(dbPath(), { timeoutMs: 5000 })
      try {
        return read(db)
      } finally {
        db.close()
      }
    },
    refs: (prefix = 'refs/sangam/') =>
      git(repo.path, 'for-each-ref', '--format=%(refname)', prefix)
        .split('\n')
        .filter((line) => line !== ''),
    async checkInvariants() {
      const { lock, lanes } = project.db((db) => ({
        lock: db.prepare('SELECT lane, task FROM integration_lock WHERE id = 1').get() as {
          lane: string | null
          task: string | null
        },
        lanes: db.prepare('SELECT name, task, state FROM lane').all() as {
          name: string
          task: string | null
          state: string
        }[],
      }))
      if (lock.lane !== null) {
        const holders = lanes.filter((lane) => lane.name === lock.lane)
        assert.equal(holders.length, 1, 'the lock is held by exactly one lane')
        const holder = holders[0]
        assert.ok(holder !== undefined)
        assert.equal(holder.task, lock.task, `the lock's task is its lane's task (${holder.name})`)
      }
      const tasks = lanes.filter((lane) => lane.task !== null)
      for (const lane of tasks)
        assert.equal(lock.lane, lane.name, `lane ${lane.name} has a task, so it holds the lock`)
      assert.ok(
        lanes.every((lane) => lane.state !== 'integrating'),
        'no lane is left integrating',
      )
    },
    [Symbol.asyncDispose]: async () => {
      await repo[Symbol.asyncDispose]()
      await home[Symbol.asyncDispose]()
    },
  }
  return project
}

/** Whether `commit` (or any ref under refs/sangam/, or a lane branch) holds `text` in `path`. */
export function recoverable(project: LaneProject, path: string, text: string): boolean {
  const refs = [...project.refs('refs/sangam/'), ...project.refs('refs/heads/')]
  return refs.some((ref) => {
    try {
      return git(project.repo.path, 'show', `${ref}:${path}`).includes(text)
    } catch {
      return false
    }
  })
}
