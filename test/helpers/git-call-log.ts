import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { delimiter, join } from 'node:path'

/**
 * A `git` on PATH that logs each call and runs the real git: tests count the git processes a
 * command or hook ran, on real repositories. Git's own children (hooks, `gc --auto`) find git
 * through its exec path, not PATH, so only sangam's calls are logged.
 */
export interface GitCallLog {
  /** The environment's PATH with the logging `git` first. */
  readonly path: string
  /** `env` with PATH set to `path`. */
  env(env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined>
  /** Every call since the last `reset`, its arguments each. */
  calls(): string[][]
  /** Forgets the calls so far. */
  reset(): void
}

const argSep = '\x1f'
const callSep = '\x1e'

/** The shim in `dir/git-call-log/`, logging to a file beside it. */
export function gitCallLog(dir: string): GitCallLog {
  const bin = join(dir, 'git-call-log')
  mkdirSync(bin, { recursive: true })
  const log = join(bin, 'calls.log')
  writeFileSync(log, '')
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim()
  // One write per call (the line built first), so calls side by side do not interleave.
  writeFileSync(
    join(bin, 'git'),
    [
      '#!/bin/sh',
      `line=$(printf '%s\\037' "$@")`,
      `printf '%s\\036' "$line" >> '${log}'`,
      `exec '${realGit}' "$@"`,
      '',
    ].join('\n'),
  )
  chmodSync(join(bin, 'git'), 0o755)
  const path = [bin, process.env.PATH ?? ''].join(delimiter)
  return {
    path,
    env: (env) => ({ ...env, PATH: path }),
    calls: () =>
      readFileSync(log, 'utf8')
        .split(callSep)
        .filter((call) => call !== '')
        .map((call) => call.split(argSep).slice(0, -1)),
    reset: () => writeFileSync(log, ''),
  }
}
