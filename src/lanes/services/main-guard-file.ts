import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { gitOutputOrNull } from '../../git/git.ts'
import type { Random } from '../../shared/random.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'

/**
 * What arms the main guard in one repository: `<git-common-dir>/sangam/main-guard`, two lines,
 * `main=<branch>` and `token=<hex>`. The guard hooks read it on every run, so a hooks directory
 * shared by several repositories (a global `core.hooksPath`) guards only the repositories that
 * hold this file; removing it disarms them. The token is the integrator's: git run with
 * `SANGAM_INTEGRATOR=<token>` (what `integratorEnvironment` returns, and only sangam's
 * integration passes) may move `main`. It is not a secret from anyone who can read `.git`: the
 * guard stops mistakes (an agent's `git commit` on main, a `git push origin main`), not a user who
 * sets out to bypass it.
 */
export interface MainGuard {
  readonly mainBranch: string
  readonly token: string
}

/** The variable the guard hooks compare with the token. */
export const integratorVariable = 'SANGAM_INTEGRATOR'

export function mainGuardFile(commonDir: string): string {
  return join(commonDir, 'sangam', 'main-guard')
}

export function readMainGuard(commonDir: string): MainGuard | null {
  let text: string
  try {
    text = readFileSync(mainGuardFile(commonDir), 'utf8')
  } catch {
    return null
  }
  const fields = new Map(
    text
      .split('\n')
      .map((line) => line.split('='))
      .filter((parts): parts is [string, string] => parts.length === 2),
  )
  const mainBranch = fields.get('main') ?? ''
  const token = fields.get('token') ?? ''
  if (mainBranch === '' || token === '') return null
  return { mainBranch, token }
}

/**
 * Arms the guard for `mainBranch`, keeping the token of a guard already armed (so a running
 * integration keeps its right to move main). Returns what the file now says.
 */
export function armMainGuard(commonDir: string, mainBranch: string, random: Random): MainGuard {
  assertGuardable(mainBranch)
  const token = readMainGuard(commonDir)?.token ?? hex(random.bytes(16))
  const file = mainGuardFile(commonDir)
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  // Written whole and renamed into place: a hook never reads half a file.
  const temporary = `${file}.${hex(random.bytes(4))}.tmp`
  writeFileSync(temporary, `main=${mainBranch}\ntoken=${token}\n`, { mode: 0o600 })
  renameSync(temporary, file)
  return { mainBranch, token }
}

/** Refuses a branch name the hooks could not compare safely (they match it literally in shell). */
export function assertGuardable(mainBranch: string): void {
  if (!/^[A-Za-z0-9._/-]+$/.test(mainBranch) || mainBranch.includes('..') || mainBranch.startsWith('-'))
    throw new SangamError(
      ErrorCode.InvalidInput,
      `'${mainBranch}' is not a branch name the guard can protect`,
    )
}

/** Disarms the guard; true when it was armed. */
export function disarmMainGuard(commonDir: string): boolean {
  const armed = readMainGuard(commonDir) !== null
  rmSync(mainGuardFile(commonDir), { force: true })
  return armed
}

/**
 * The environment sangam's integration adds to the git commands that move `main` (a
 * fast-forward, `branch -f`, `update-ref`), so the guard lets them through. Empty when the guard
 * is not armed: then nothing needs letting through.
 */
export function integratorEnvironment(commonDir: string): Record<string, string> {
  const guard = readMainGuard(commonDir)
  return guard === null ? {} : { [integratorVariable]: guard.token }
}

/** `integratorEnvironment` for the repository of `cwd` (any of its worktrees). */
export function integratorEnvironmentAt(cwd: string): Record<string, string> {
  const common = gitOutputOrNull(['rev-parse', '--path-format=absolute', '--git-common-dir'], cwd)
  return common === null ? {} : integratorEnvironment(common)
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
}
