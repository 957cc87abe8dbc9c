import { createHash } from 'node:crypto'
import { realpathSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import { hookLocatorsFile } from '../config/data-paths.ts'
import { gitLocationOverridden } from '../config/git-environment.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import { gitOutputOrNull, runGit } from './git.ts'
import { findGitLayout, worktreeRoots } from './git-layout.ts'
import { configMtimeOf, freshEntry, readLocators, writeLocators } from './locator-cache.ts'
import { readRecordedProjectId } from './recorded-project-id.ts'
import { normaliseRemoteUrl } from './remote-url.ts'

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
  /**
   * The project's id: the one recorded in the common dir (`recorded-project-id.ts`) when there is
   * one, else `derivedProjectId`. `services/project-identity.ts` settles an unrecorded checkout's id
   * against the stores on this machine before anything opens one.
   */
  readonly projectId: string
  /**
   * How `projectId` came about: derived from the remote or the common dir (recorded or not yet),
   * or `recorded` for a recorded id neither derives to now (a remote changed after the project was
   * recorded, or a teammate's connection line).
   */
  readonly identitySource: IdentitySource
  /** The id recorded in the common dir, or null before the project is recorded. */
  readonly recordedProjectId: string | null
  /** What a fresh clone of this checkout would derive: from the remote, else from the common dir. */
  readonly derivedProjectId: string
  /** The id the common dir alone derives (what this checkout had before it had a remote). */
  readonly commonDirProjectId: string
  /** git `user.email`, else `user.name`, of this checkout, or null (see `gitUser`). */
  readonly user: string | null
}

/**
 * Where a command keeps what it learnt of its checkout (`locator-cache.ts`): SANGAM_HOME and the
 * time, so that an entry's age can be told.
 */
export interface LocatorCache {
  readonly sangamHome: string
  readonly now: number
}

/**
 * Finds the repository containing `cwd`, or throws NOT_A_REPOSITORY. With `cache`, as every command
 * that opens its project does, no git process runs in the usual case (D396): the worktree and
 * common dir are read from `.git` (git-layout.ts), and the remote and user from the locator cache
 * the hooks share while git config is unchanged. Anything unusual (GIT_DIR and the like, a bare
 * repository, `core.worktree`) asks git, as does a cache without a fresh entry.
 */
export function openRepository(cwd: string, cache?: LocatorCache): Repository {
  const layout = cache === undefined || gitLocationOverridden() ? null : findGitLayout(cwd)
  if (layout === null || cache === undefined) return openRepositoryWithGit(cwd)
  const configMtimeMs = configMtimeOf(layout.commonDir)
  const cached = freshEntry(
    readLocators(hookLocatorsFile(cache.sangamHome))[layout.commonDir],
    configMtimeMs,
    cache.now,
  )
  const identity =
    cached?.remote === undefined
      ? identityConfig(layout.worktreeRoot)
      : { remote: cached.remote, user: cached.gitUser }
  return repositoryAt(layout.worktreeRoot, layout.commonDir, identity)
}

/**
 * Keeps what `repo`, now opened with its id recorded, says of its checkout for the next command and
 * hook (`locator-cache.ts`): the entry a hook would write after asking git, with the remote too.
 */
export function rememberRepository(repo: Repository, cache: LocatorCache): void {
  const file = hookLocatorsFile(cache.sangamHome)
  const locators = readLocators(file)
  const configMtimeMs = configMtimeOf(repo.commonDir)
  const known = freshEntry(locators[repo.commonDir], configMtimeMs, cache.now)
  if (
    known !== null &&
    known.projectId === repo.projectId &&
    known.recorded === repo.recordedProjectId &&
    known.gitUser === repo.user &&
    known.remote === repo.remote
  )
    return
  const entry = {
    configMtimeMs,
    checkedAt: cache.now,
    projectId: repo.projectId,
    recorded: repo.recordedProjectId,
    gitUser: repo.user,
    remote: repo.remote,
  }
  writeLocators(file, { ...locators, [repo.commonDir]: entry })
}

function openRepositoryWithGit(cwd: string): Repository {
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
  return repositoryAt(root, commonDir, identityConfig(root))
}

function repositoryAt(
  root: string,
  commonDir: string,
  config: { readonly remote: string | null; readonly user: string | null },
): Repository {
  const remote = config.remote
  const commonDirProjectId = hashedProjectId(`common-dir:${commonDir}`)
  const derivedProjectId = remote === null ? commonDirProjectId : hashedProjectId(remote)
  return withProjectId(
    {
      root,
      commonDir,
      worktrees: worktreeRoots({ worktreeRoot: root, commonDir }),
      remote,
      recordedProjectId: readRecordedProjectId(commonDir),
      derivedProjectId,
      commonDirProjectId,
      user: config.user,
    },
    null,
  )
}

export type IdentitySource = 'remote' | 'common-dir' | 'recorded'

/**
 * `repo` named by `projectId`, or by its recorded id, else its derived one, when `projectId` is
 * null; `identitySource` says which derivation the id matches.
 */
export function withProjectId(
  repo: Omit<Repository, 'projectId' | 'identitySource'>,
  projectId: string | null,
): Repository {
  const id = projectId ?? repo.recordedProjectId ?? repo.derivedProjectId
  const identitySource: IdentitySource =
    id === repo.commonDirProjectId
      ? 'common-dir'
      : repo.remote !== null && id === repo.derivedProjectId
        ? 'remote'
        : 'recorded'
  return { ...repo, projectId: id, identitySource }
}

/** `prj_` + the first 16 hex digits of the SHA-256 of what names the project. */
function hashedProjectId(identity: string): string {
  return `prj_${createHash('sha256').update(identity).digest('hex').slice(0, 16)}`
}

/**
 * The remote that names the project (origin, else the first remote by name, as `git remote` lists
 * them) and the checkout's user, from one `git config` process: every command opens the project,
 * and each git process is several milliseconds of its start-up.
 */
function identityConfig(root: string): { readonly remote: string | null; readonly user: string | null } {
  const listed = gitOutputOrNull(
    ['config', '--get-regexp', '^(remote\\..*\\.url|user\\.email|user\\.name)$'],
    root,
  )
  // `git config --get` answers the last value of a key given twice; so does this map.
  const values = new Map<string, string>()
  for (const line of (listed ?? '').split('\n')) {
    const space = line.indexOf(' ')
    if (space > 0) values.set(line.slice(0, space), line.slice(space + 1).trim())
  }
  const remotes = [...values.keys()]
    .filter((key) => key.startsWith('remote.') && key.endsWith('.url'))
    .map((key) => key.slice('remote.'.length, -'.url'.length))
    .sort()
  const name = remotes.includes('origin') ? 'origin' : remotes[0]
  const url = name === undefined ? '' : (values.get(`remote.${name}.url`) ?? '')
  return {
    remote: url === '' ? null : normaliseRemoteUrl(url),
    user: values.get('user.email') || values.get('user.name') || null,
  }
}
