import { spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * The scratch folder of a room bench: HOME and SANGAM_HOME under it, so the machine's own sangam
 * data is never read or written, while the rest of the user's environment (PATH, git's own
 * settings) stays, as it does for a user running the command. Removing `dir` is the bench's job,
 * in its `finally`.
 */
export interface BenchScratch {
  readonly dir: string
  readonly env: NodeJS.ProcessEnv
  /** Runs a command, throwing with its stderr when it fails; its stdout. */
  run(command: string, args: readonly string[], cwd: string, input?: string): string
  /** A repository `<dir>/<name>` on `main` with one empty commit. */
  emptyRepo(name: string): string
}

export interface BenchScratchOptions {
  /** SANGAM_USER: `bench` unless said. */
  readonly user?: string
  /** Sets git's author and committer, for the benches whose fixtures commit. */
  readonly gitIdentity?: boolean
}

export function benchScratch(name: string, options: BenchScratchOptions = {}): BenchScratch {
  const dir = mkdtempSync(join(tmpdir(), `sangam-bench-${name}-`))
  const identity = options.gitIdentity
    ? { GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@x' }
    : {}
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: dir,
    SANGAM_HOME: join(dir, 'sangam'),
    SANGAM_USER: options.user ?? 'bench',
    SANGAM_LOG: 'warn',
    ...identity,
  }
  const run = (command: string, args: readonly string[], cwd: string, input?: string): string => {
    const result = spawnSync(command, args, { cwd, env, input, encoding: 'utf8' })
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr}`)
    return result.stdout
  }
  const emptyRepo = (repoName: string): string => {
    const repo = join(dir, repoName)
    run('git', ['init', '-q', '-b', 'main', repo], dir)
    run(
      'git',
      ['-c', 'user.email=b@x', '-c', 'user.name=b', 'commit', '-q', '--allow-empty', '-m', 'init'],
      repo,
    )
    return repo
  }
  return { dir, env, run, emptyRepo }
}
