import { createHash } from 'node:crypto'
import { realpathSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import { normaliseRemoteUrl } from '../core/remote-url.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import { gitOutputOrNull, runGit } from './git.ts'
import { worktreeRoots } from './git-layout.ts'

/** What sangam needs to know about the repository it runs in. */
export interface Repository {
  /** Top level of the worktree we were started in. */
  readonly root: string
  /** The common git dir shared by all worktrees (absolute, real path). */
  readonly commonDir: string
  /** Every worktree of the repository (absolute, real paths), the main one first. */
  readonly worktrees: readonly string[]
  /** The normalised remote (origin, else the first remote), or null. */
  readonly remote: string | null
  /** `prj_` + 16 hex: from the normalised remote, else from the common dir. */
  readonly projectId: string
  readonly identitySource: 'remote' | 'common-dir'
}

/** Finds the repository containing `cwd`, or throws NOT_A_REPOSITORY. */
export function openRepository(cwd: string): Repository {
  const top = runGit(['rev-parse', '--show-toplevel', '--git-common-dir'], cwd)
  if (top.code !== 0) {
    throw new SangamError(
      ErrorCode.NotARepository,
      `${cwd} is not inside a Git repository; run sangam from a repository (git init creates one)`,
    )
  }
  const [rootLine = '', commonLine = ''] = top.stdout.trim().split('\n')
  const root = realpathSync(rootLine)
  const commonDir = realpathSync(isAbsolute(commonLine) ? commonLine : resolve(cwd, commonLine))
  const remote = findRemote(root)
  const identity = remote ?? `common-dir:${commonDir}`
  return {
    root,
    commonDir,
    worktrees: worktreeRoots({ worktreeRoot: root, commonDir }),
    remote,
    projectId: `prj_${createHash('sha256').update(identity).digest('hex').slice(0, 16)}`,
    identitySource: remote === null ? 'common-dir' : 'remote',
  }
}

function findRemote(root: string): string | null {
  const origin = gitOutputOrNull(['config', '--get', 'remote.origin.url'], root)
  if (origin) return normaliseRemoteUrl(origin)
  const names = gitOutputOrNull(['remote'], root)
  const first = names?.split('\n').find((name) => name.trim() !== '')
  if (!first) return null
  const url = gitOutputOrNull(['config', '--get', `remote.${first.trim()}.url`], root)
  return url ? normaliseRemoteUrl(url) : null
}

/** The human behind this checkout: git `user.email`, else `user.name`, else null. */
export function gitUser(root: string): string | null {
  return (
    gitOutputOrNull(['config', '--get', 'user.email'], root) ||
    gitOutputOrNull(['config', '--get', 'user.name'], root) ||
    null
  )
}
