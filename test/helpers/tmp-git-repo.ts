import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/** A scratch directory removed on dispose (`await using dir = tmpDir()`). */
export interface TmpDir extends AsyncDisposable {
  readonly path: string
}

export function tmpDir(prefix = 'sangam-test-'): TmpDir {
  const path = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
  return {
    path,
    // Retried: a process a test just stopped may still be writing inside (Claude Code's background
    // runner outlives `claude daemon stop` by a moment), and rmdir then fails with ENOTEMPTY.
    [Symbol.asyncDispose]: async () =>
      rmSync(path, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }),
  }
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_DATE: '2026-11-01T10:00:00Z',
      GIT_COMMITTER_DATE: '2026-11-01T10:00:00Z',
    },
  }).trim()
}

export interface TmpRepo extends TmpDir {
  /** Writes a file (creating folders) relative to the repository root. */
  write(relativePath: string, content: string): void
  /** Stages everything and commits; returns the commit id. */
  commit(message: string): string
}

export interface TmpRepoOptions {
  readonly remote?: string | undefined
  readonly commit?: boolean | undefined
  readonly user?: string | undefined
  /**
   * A clone of this repository (a shared remote, bare or not) instead of a new one: its commits,
   * `origin` naming it, no commit of its own; `remote` and `commit` do not apply.
   */
  readonly cloneOf?: string | undefined
}

/** A real git repository in a temp dir, with an optional remote and an initial commit, or a clone. */
export function tmpGitRepo(options: TmpRepoOptions = {}): TmpRepo {
  const dir = tmpDir('sangam-repo-')
  const path = join(dir.path, 'repo')
  if (options.cloneOf === undefined) {
    mkdirSync(path)
    git(path, 'init', '-q', '-b', 'main')
  } else git(dir.path, 'clone', '-q', options.cloneOf, path)
  git(path, 'config', 'user.email', options.user ?? 'dev@example.com')
  git(path, 'config', 'user.name', 'Dev')
  git(path, 'config', 'commit.gpgsign', 'false')
  if (options.remote) git(path, 'remote', 'add', 'origin', options.remote)
  const repo: TmpRepo = {
    path,
    write(relativePath, content) {
      const file = join(path, relativePath)
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, content)
    },
    commit(message) {
      git(path, 'add', '-A')
      git(path, 'commit', '-q', '--allow-empty', '-m', message)
      return git(path, 'rev-parse', 'HEAD')
    },
    [Symbol.asyncDispose]: dir[Symbol.asyncDispose],
  }
  if (options.commit !== false && options.cloneOf === undefined) {
    repo.write('README.md', '# test\n')
    repo.commit('initial')
  }
  return repo
}

/** A repository (as `tmpGitRepo` makes it) whose next commit, `sources`, holds `files` (path → content). */
export function tmpRepoWith(files: Readonly<Record<string, string>>, options: TmpRepoOptions = {}): TmpRepo {
  const repo = tmpGitRepo(options)
  for (const [path, content] of Object.entries(files)) repo.write(path, content)
  repo.commit('sources')
  return repo
}
