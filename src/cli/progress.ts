import type { CaptureProgress } from '../memory/services/capture.ts'
import type { Clock } from '../shared/clock.ts'
import { redrawLine } from './terminal-stream.ts'

export interface ProgressStream {
  write(text: string): unknown
  readonly isTTY?: boolean | undefined
}

export interface ProgressBar {
  update(progress: CaptureProgress): void
  /** Draws the final state (ending the bar's line on a terminal). */
  done(): void
}

/** Redraws on a terminal at most this often. */
const ttyEveryMs = 100
/** Without a terminal (CI, a log file), one line this often. */
const lineEveryMs = 5000
const width = 24

/**
 * Progress of a backfill on stderr: files, megabytes and events. On a terminal it redraws one
 * line with `\r`; elsewhere it prints a plain line every few seconds, so logs stay readable.
 */
export function createProgressBar(stream: ProgressStream, clock: Clock, label: string): ProgressBar {
  const tty = stream.isTTY === true
  const startedAt = clock.now()
  let last: CaptureProgress | null = null
  let drawnAt = Number.NEGATIVE_INFINITY
  let drawn = false
  const draw = (progress: CaptureProgress): void => {
    if (tty) redrawLine(stream, render(label, progress, true))
    else stream.write(`${render(label, progress, false)}\n`)
    drawnAt = clock.now()
    drawn = true
  }
  return {
    update(progress) {
      last = progress
      const every = tty ? ttyEveryMs : lineEveryMs
      const due = tty ? clock.now() - drawnAt >= every : clock.now() - Math.max(drawnAt, startedAt) >= every
      if (due) draw(progress)
    },
    done() {
      if (last && (drawn || tty)) draw(last)
      if (tty && drawn) stream.write('\n')
    },
  }
}

export function render(label: string, progress: CaptureProgress, bar: boolean): string {
  const fraction = progress.bytesTotal === 0 ? 1 : Math.min(1, progress.bytesDone / progress.bytesTotal)
  const filled = Math.round(fraction * width)
  const meter = bar ? `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ` : ''
  const percent = `${Math.floor(fraction * 100)}%`.padStart(4)
  return (
    `${label} ${meter}${percent}  ${progress.filesDone}/${progress.filesTotal} files  ` +
    `${megabytes(progress.bytesDone)}/${megabytes(progress.bytesTotal)} MB  ${progress.events} events`
  )
}

function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1)
}
