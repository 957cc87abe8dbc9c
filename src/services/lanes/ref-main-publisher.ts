import { runGit } from '../../git/git.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import { internalWrite, must, worktreeOfBranch } from './lane-git.ts'
import { integratorEnvironmentAt } from './main-guard-file.ts'
import type { MainPublisher } from './main-publisher.ts'

/**
 * Publishes on this machine: `git update-ref refs/heads/<main> <to> <from>`, which moves main only
 * if it still is `from` (never blindly), then brings the worktree that has main checked out (it
 * was checked clean before) from `from`'s tree to `to`'s with a two-tree `read-tree -m -u`.
 * `fault` names the step between the two for the crash tests (`main-moved`).
 */
export class RefMainPublisher implements MainPublisher {
  readonly #cwd: string
  readonly #mainBranch: string
  readonly #fault: (step: string) => void

  constructor(cwd: string, mainBranch: string, fault: (step: string) => void = () => undefined) {
    this.#cwd = cwd
    this.#mainBranch = mainBranch
    this.#fault = fault
  }

  async publish(input: { from: string; to: string }): Promise<void> {
    const moved = runGit(
      ['update-ref', `refs/heads/${this.#mainBranch}`, input.to, input.from],
      this.#cwd,
      undefined,
      { ...internalWrite, ...integratorEnvironmentAt(this.#cwd) },
    )
    if (moved.code !== 0)
      throw new SangamError(
        ErrorCode.GitFailed,
        `${this.#mainBranch} is no longer ${input.from.slice(0, 12)}: it moved while this sync ran (${moved.stderr.trim()})`,
      )
    this.#fault('main-moved')
    const checkedOut = worktreeOfBranch(this.#cwd, this.#mainBranch)
    if (checkedOut !== null) bringWorktreeAlong(checkedOut, input.from, input.to)
  }
}

/**
 * Moves a worktree whose branch just moved from `from` to `to` along with it, when its index
 * still is `from`'s tree (otherwise it was already brought along). Also what the restart
 * normalisation runs after a publish interrupted between the ref and the files.
 */
export function bringWorktreeAlong(worktree: string, from: string, to: string): void {
  const index = must(runGit(['write-tree'], worktree), 'write-tree').trim()
  const fromTree = must(runGit(['rev-parse', `${from}^{tree}`], worktree), 'rev-parse').trim()
  if (index !== fromTree) return
  must(runGit(['read-tree', '-m', '-u', from, to], worktree, undefined, internalWrite), 'read-tree -m -u')
}
