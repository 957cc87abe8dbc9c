import { runGit } from '../../git/git.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import { must, worktreeOfBranch } from './lane-git.ts'
import { integratorEnvironment, integratorEnvironmentAt } from './main-guard-file.ts'
import type { MainPublisher } from './main-publisher.ts'
import type { MainMoves } from './main-record.ts'

/**
 * Publishes on this machine: `git update-ref refs/heads/<main> <to> <from>`, which moves main only
 * if it still is `from` (never blindly), then brings the worktree that has main checked out (it
 * was checked clean before) from `from`'s tree to `to`'s with a two-tree `read-tree -m -u`.
 * `fault` names the step between the two for the crash tests (`main-moved`). `moves`, where given,
 * is told around the ref's move, so this machine's record of main (main-record.ts) follows every
 * move sangam makes and a crash between the two leaves a record that settles on either.
 */
export class RefMainPublisher implements MainPublisher {
  readonly #cwd: string
  readonly #mainBranch: string
  readonly #fault: (step: string) => void
  readonly #commonDir: string | null
  readonly #moves: MainMoves | null

  /** `commonDir`, when the caller knows it, saves asking git for it on every publish. */
  constructor(
    cwd: string,
    mainBranch: string,
    fault: (step: string) => void = () => undefined,
    commonDir: string | null = null,
    moves: MainMoves | null = null,
  ) {
    this.#cwd = cwd
    this.#mainBranch = mainBranch
    this.#fault = fault
    this.#commonDir = commonDir
    this.#moves = moves
  }

  async publish(input: { from: string; to: string }): Promise<void> {
    this.#moves?.moving(input.from, input.to)
    const moved = runGit(
      ['update-ref', `refs/heads/${this.#mainBranch}`, input.to, input.from],
      this.#cwd,
      undefined,
      this.#commonDir === null ? integratorEnvironmentAt(this.#cwd) : integratorEnvironment(this.#commonDir),
    )
    if (moved.code !== 0) {
      this.#moves?.stayed(input.from)
      throw new SangamError(
        ErrorCode.GitFailed,
        `${this.#mainBranch} is no longer ${input.from.slice(0, 12)}: it moved while this sync ran (${moved.stderr.trim()})`,
      )
    }
    this.#fault('main-moved')
    this.#moves?.moved(input.to)
    const checkedOut = worktreeOfBranch(this.#cwd, this.#mainBranch)
    if (checkedOut !== null) bringWorktreeAlong(checkedOut, input.from, input.to)
  }
}

/**
 * Moves a worktree whose branch just moved from `from` to `to` along with it. Also what the
 * restart normalisation runs after a publish interrupted between the ref and the files. A two-tree
 * `read-tree -m -u` takes `to`'s version only of paths whose index entry is still `from`'s, so it
 * is a no-op on a worktree already brought along and keeps what someone staged meanwhile; where it
 * refuses (a staged change `to` also changes), the worktree is left as it is when its index is no
 * longer `from`'s, as before, and only a refusal on `from`'s own index is an error.
 */
export function bringWorktreeAlong(worktree: string, from: string, to: string): void {
  const moved = runGit(['read-tree', '-m', '-u', from, to], worktree)
  if (moved.code === 0) return
  // Does the index still hold `from`'s tree (exit 0), or not (1)?
  const same = runGit(['diff-index', '--cached', '--quiet', from, '--'], worktree)
  if (same.code === 1) return
  must(same, `diff-index --cached ${from}`)
  must(moved, 'read-tree -m -u')
}
