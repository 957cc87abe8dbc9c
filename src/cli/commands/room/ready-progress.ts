import type { ReadyProgress } from '../../../room/services/ready.ts'
import { redrawLine } from '../../terminal-stream.ts'

/**
 * Below this many merges to run a cold `ready` is quick (about 1 ms each in one git process), so
 * a stderr that is not a terminal (CI, an agent's tool call) hears nothing of it.
 */
export const quietMergeCount = 200

/**
 * Progress of `ready` on stderr: on a terminal one line rewritten in place; elsewhere a line
 * every 10%, and only for runs of at least `quietMergeCount` merges. Never on stdout (`--json`).
 */
export function readyProgress(
  stderr: NodeJS.WritableStream & { isTTY?: boolean | undefined },
): ReadyProgress & {
  end(): void
} {
  let lastTenth = -1
  let drawn = false
  const progress = (done: number, total: number): void => {
    const percent = Math.floor((done / total) * 100)
    const line = `sangam: checking branch pairs ${done}/${total} (${percent}%)`
    if (stderr.isTTY === true) {
      redrawLine(stderr, line)
      drawn = true
      return
    }
    if (total < quietMergeCount) return
    const tenth = Math.floor(percent / 10)
    if (tenth === lastTenth && done < total) return
    lastTenth = tenth
    stderr.write(`${line}\n`)
  }
  return Object.assign(progress, {
    end(): void {
      if (drawn) stderr.write('\n')
    },
  })
}
