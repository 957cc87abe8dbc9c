import { workingState } from '../../git/working-state.ts'
import { stamp } from '../core/lane-name.ts'
import { headOf, writeRef } from './lane-git.ts'

/**
 * Saves a lane's work before anything may discard it: `refs/sangam/<kind>/<stamp>/<lane>/head` =
 * its HEAD and, when it has uncommitted work, `…/dirty` = a commit of it (untracked files too,
 * parent HEAD), made without touching the worktree. Answers the refs written.
 */
export async function saveLaneWork(
  worktree: string,
  input: { kind: 'backups' | 'deleted' | 'takeovers'; lane: string; reason: string; now: number },
): Promise<string[]> {
  const head = headOf(worktree)
  const prefix = `refs/sangam/${input.kind}/${stamp(input.now)}/${input.lane}/${input.reason}`
  const refs = [`${prefix}/head`]
  writeRef(worktree, `${prefix}/head`, head)
  const state = await workingState(worktree, head)
  if (state.commit !== head) {
    writeRef(worktree, `${prefix}/dirty`, state.commit)
    refs.push(`${prefix}/dirty`)
  }
  return refs
}

export function snapshotRef(task: string): string {
  return `refs/sangam/snapshots/${task}`
}

export function baseRef(task: string): string {
  return `refs/sangam/bases/${task}`
}
