import { runGit } from '../../git/git.ts'
import { pushFailureWords } from '../../git/push-failure.ts'
import { type Logger, silentLogger } from '../../shared/logger.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import { isAncestor, refCommit } from './lane-git.ts'
import { laneRefused } from './lane-refused.ts'
import { integratorEnvironment } from './main-guard-file.ts'
import type { MainPublisher } from './main-publisher.ts'
import type { TeamMainDesk } from './team-main-desk.ts'

/** The shared remote a team's lanes publish to. */
export interface RemoteMain {
  /** The repository's main worktree (where git runs). */
  readonly root: string
  readonly commonDir: string
  /** The git remote's name (`origin`). */
  readonly remote: string
  readonly mainBranch: string
}

/**
 * Publishes for a team: first the shared remote's main, as a compare-and-swap
 * (`git push --force-with-lease=refs/heads/<main>:<what we last fetched>`), then this machine's
 * main through `local`. The expected value is the remote-tracking ref the last catch-up fetched
 * (`remote-catch-up.ts`), and the candidate must contain it: so main on the remote moves only
 * forward, and only from the value this sync saw. Two machines can never both move it; the one
 * that finds it moved is refused `main-moved` with nothing moved (its next sync catches up and
 * merges). Never a blind force push.
 */
export class RemoteMainPublisher implements MainPublisher {
  readonly #local: MainPublisher
  readonly #remote: RemoteMain
  readonly #log: Logger
  readonly #desk: TeamMainDesk | null

  /** `desk`: the team's record of main (D302), told before the push and after it took. */
  constructor(
    local: MainPublisher,
    remote: RemoteMain,
    log: Logger = silentLogger,
    desk: TeamMainDesk | null = null,
  ) {
    this.#local = local
    this.#remote = remote
    this.#log = log.child({ component: 'remote-main-publisher' })
    this.#desk = desk
  }

  async publish(input: { from: string; to: string; token?: number | undefined }): Promise<void> {
    const { root, remote, mainBranch, commonDir } = this.#remote
    const main = `refs/heads/${mainBranch}`
    const seen = refCommit(root, `refs/remotes/${remote}/${mainBranch}`)
    if (seen !== null && !isAncestor(root, seen, input.to))
      throw moved(
        this.#remote,
        `${remote}'s ${mainBranch} (${seen.slice(0, 12)}) has work this candidate lacks`,
      )
    const token = input.token
    if (this.#desk !== null && token !== undefined) {
      // Where main goes is recorded first, so a machine that fetches it meanwhile finds it allowed.
      const holder = await this.#desk.publishing({ token, from: seen, to: input.to })
      if (!holder)
        throw laneRefused(
          'integration-busy',
          "the team server no longer counts this sync as the integration lock's holder (it was taken over); nothing was moved",
          'run sangam status to see who holds it, and sangam sync again once it is free',
        )
    }
    const pushed = runGit(
      ['push', '--porcelain', `--force-with-lease=${main}:${seen ?? ''}`, remote, `${input.to}:${main}`],
      root,
      undefined,
      integratorEnvironment(commonDir),
    )
    if (pushed.code !== 0) {
      const said = `${pushed.stdout}\n${pushed.stderr}`
      if (/\[rejected\]|stale info|fetch first|non-fast-forward/.test(said))
        throw moved(this.#remote, `${remote}'s ${mainBranch} moved since this sync last fetched it`)
      throw new SangamError(
        ErrorCode.GitFailed,
        `could not publish to ${remote}'s ${mainBranch}; ${mainBranch} was not moved here or there. git push said:\n${indent(pushFailureWords(pushed))}`,
        { remote },
      )
    }
    // The push took: the team's main has moved. This machine's main follows; if it cannot now
    // (it moved under us, which the lock rules out), the next sync's catch-up brings it along.
    if (this.#desk !== null && token !== undefined)
      try {
        await this.#desk.published({ token, commit: input.to })
      } catch (error) {
        // The record still allows both commits: only a hand move back to the old one goes unseen.
        this.#log.warn(`the team server did not confirm ${mainBranch}'s new commit`, {
          error: (error as Error).message,
        })
      }
    try {
      await this.#local.publish(input)
    } catch (error) {
      this.#log.warn(`${remote}'s ${mainBranch} is published but this machine's is not yet`, {
        error: (error as Error).message,
      })
    }
  }
}

function moved(remote: RemoteMain, why: string) {
  return laneRefused(
    'main-moved',
    `${why}: another machine published first; nothing was moved`,
    `run sangam sync again: it fetches ${remote.remote}'s ${remote.mainBranch}, catches up and merges this lane on top`,
  )
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n')
}
