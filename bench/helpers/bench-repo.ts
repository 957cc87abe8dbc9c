import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/**
 * The setup the CLI and hook benches share: a scratch folder holding a git repository with one
 * empty commit on `main`, and an environment isolated from the user's (its own HOME, SANGAM_HOME
 * and vendor homes), so that nothing on the machine running the bench is read or written.
 */
export interface BenchRepo {
  readonly scratch: string
  readonly repo: string
  readonly env: NodeJS.ProcessEnv
  /** The environment with another SANGAM_HOME under the scratch folder (a second machine). */
  readonly envFor: (sangamHome: string) => NodeJS.ProcessEnv
  /** Runs a command in the repository, throwing with its stderr when it fails. */
  readonly sh: (command: string, args: readonly string[], extra?: NodeJS.ProcessEnv) => string
}

/** `files` are written (relative to the repository) before the first commit's `git init`. */
export function benchRepo(name: string, files: Readonly<Record<string, string>> = {}): BenchRepo {
  const scratch = mkdtempSync(join(tmpdir(), `sangam-bench-${name}-`))
  const repo = join(scratch, 'repo')
  const envFor = (sangamHome: string): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH,
    HOME: scratch,
    SANGAM_HOME: join(scratch, sangamHome),
    CLAUDE_CONFIG_DIR: join(scratch, '.claude'),
    CODEX_HOME: join(scratch, '.codex'),
  })
  const env = envFor('.sangam')
  const sh = (command: string, args: readonly string[], extra: NodeJS.ProcessEnv = {}): string => {
    const result = spawnSync(command, args, { cwd: repo, env: { ...env, ...extra }, encoding: 'utf8' })
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr}`)
    return result.stdout
  }
  mkdirSync(repo, { recursive: true })
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true })
    writeFileSync(join(repo, path), text)
  }
  sh('git', ['init', '-q', '-b', 'main'])
  const identity = ['-c', 'user.email=dev@example.com', '-c', 'user.name=Dev']
  sh('git', [...identity, 'commit', '-q', '--allow-empty', '-m', 'init'])
  sh('git', ['config', 'user.email', 'dev@example.com'])
  return { scratch, repo, env, envFor, sh }
}
