import { spawn, spawnSync } from 'node:child_process'
import { gitEnvironment } from '../config/git-environment.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'

/** The outcome of one git invocation. A non-zero exit is an answer, not an exception. */
export interface GitResult {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/**
 * Runs git (`extraEnv` on top of git's environment: a temporary index, a fixed identity). This is the only place in sangam that spawns git, so that every call gets the same
 * environment (`config/git-environment.ts`).
 */
export function runGit(
  args: readonly string[],
  cwd: string,
  input?: string,
  extraEnv?: Readonly<Record<string, string>>,
): GitResult {
  const result = spawnSync('git', args, {
    cwd,
    input,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: extraEnv === undefined ? gitEnvironment() : { ...gitEnvironment(), ...extraEnv },
  })
  if (result.error) {
    throw new SangamError(ErrorCode.GitFailed, `could not run git: ${result.error.message}`, undefined, {
      cause: result.error,
    })
  }
  return { code: result.status ?? 1, stdout: result.stdout, stderr: result.stderr }
}

/** Runs git and returns trimmed stdout, or throws when git exits non-zero. */
export function gitOutput(args: readonly string[], cwd: string): string {
  const result = runGit(args, cwd)
  if (result.code !== 0) {
    throw new SangamError(ErrorCode.GitFailed, `git ${args.join(' ')} failed: ${result.stderr.trim()}`)
  }
  return result.stdout.trim()
}

/** Runs git and returns trimmed stdout, or null when git exits non-zero (a missing ref, no remote). */
export function gitOutputOrNull(args: readonly string[], cwd: string): string | null {
  const result = runGit(args, cwd)
  return result.code === 0 ? result.stdout.trim() : null
}

/**
 * Runs git without blocking the event loop, so independent calls (one per worktree) run side by
 * side and the daemon's other services keep going meanwhile. Same environment and answer as
 * `runGit`.
 */
export function runGitAsync(
  args: readonly string[],
  cwd: string,
  input?: string,
  extraEnv?: Readonly<Record<string, string>>,
): Promise<GitResult> {
  return spawnCollecting('git', args, cwd, input, extraEnv)
}

/**
 * Runs `git -C <worktree> <args>` for each worktree in turn from one `sh`, their outputs one after
 * another, stopping at the first that fails (its exit code is the answer). For many small calls: a
 * process started from Node costs more than a small worktree's status (its page tables are copied
 * at each fork, on the main thread), and sh starts git cheaply. Not `git for-each-repo`: git
 * exports the repository it found from its own directory to its children, which then read the
 * wrong index. The worktrees go in on stdin, a line each: one holding a newline fails, and the
 * caller asks again one by one.
 */
export function runGitEachAsync(worktrees: readonly string[], args: readonly string[]): Promise<GitResult> {
  const script = 'while IFS= read -r worktree; do git -C "$worktree" "$@" </dev/null || exit; done'
  return spawnCollecting(
    'sh',
    ['-c', script, 'sh', ...args],
    worktrees[0] ?? '/',
    `${worktrees.join('\n')}\n`,
  )
}

function spawnCollecting(
  command: string,
  args: readonly string[],
  cwd: string,
  input?: string,
  extraEnv?: Readonly<Record<string, string>>,
): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: extraEnv === undefined ? gitEnvironment() : { ...gitEnvironment(), ...extraEnv },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk))
    child.on('error', (error) =>
      reject(
        new SangamError(ErrorCode.GitFailed, `could not run git: ${error.message}`, undefined, {
          cause: error,
        }),
      ),
    )
    child.on('close', (code) =>
      resolve({
        code: code ?? 1,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    )
    // A git that exits before reading all its input (a bad argument) must not crash us with EPIPE.
    child.stdin.on('error', () => undefined)
    child.stdin.end(input)
  })
}
