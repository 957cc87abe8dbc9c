import { closeSync } from 'node:fs'
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { TranscriptLocation } from '../../agents/transcript-locations.ts'
import type { CaptureBatch, CommitOutcome } from '../store/capture-store.ts'
import type { FromWorker, ToWorker, WorkerSetup } from './capture-worker.ts'
import type { ReadMode } from './read-batches.ts'
import { type FileSyncResult, isPrepared, type PreparedFile } from './transcript-file.ts'

/** What the main thread does for the pipeline: everything that touches the database. */
export interface PipelineHooks {
  prepareFile(location: TranscriptLocation): PreparedFile | FileSyncResult
  commit(batch: CaptureBatch): CommitOutcome
  onCommit(bytes: number, inserted: number): void
  /** Waits for `wait`, releasing what must not be held meanwhile (the daemon's write lock). */
  pause(wait: Promise<void>): Promise<void>
  onFile(location: TranscriptLocation, result: FileSyncResult): void
  /** Reads a file on the main thread instead (its worker batches lost a race to another process). */
  syncAlone(location: TranscriptLocation): FileSyncResult
}

/** Files handed to the worker ahead of the one being committed. */
const lookahead = 16
/** Batches read but not yet committed, at most: each holds up to `batchBytes` of transcript. */
const inFlight = 4

interface Job {
  readonly location: TranscriptLocation
  readonly movedFrom: string | null
  lost: boolean
  inserted: number
  reset: boolean
}

/**
 * A backfill on two threads: a worker reads, parses, runs the vendor reader, scrubs and builds
 * batches; this thread prepares files (scope, moves) and commits the batches as they come, in
 * file order. Reading is most of a backfill's CPU and SQLite the rest, so on two cores they
 * overlap. Commits keep their offset check: a batch that lost a race is dropped and its file read
 * again here, alone.
 */
export async function backfillWithWorker(
  work: readonly TranscriptLocation[],
  setup: Omit<WorkerSetup, 'credits'>,
  hooks: PipelineHooks,
  options: { mode: ReadMode; now: () => number; signal?: AbortSignal | undefined },
): Promise<void> {
  const credits = new Int32Array(new SharedArrayBuffer(4))
  credits[0] = inFlight
  const worker = startWorker({ ...setup, credits })
  const inbox: FromWorker[] = []
  let failure: Error | null = null
  let wake: (() => void) | null = null
  worker.on('message', (message: FromWorker) => {
    inbox.push(message)
    wake?.()
  })
  let closing = false
  worker.on('error', (error) => {
    failure = error
    wake?.()
  })
  worker.on('exit', (code) => {
    if (!closing) failure ??= new Error(`the capture worker stopped unexpectedly (exit code ${code})`)
    wake?.()
  })
  const jobs = new Map<number, Job>()
  const send = (message: ToWorker): void => worker.postMessage(message)

  const handle = (message: FromWorker): void => {
    const job = jobs.get(message.job)
    if (message.type === 'failed') {
      const path = job?.location.path ?? 'a transcript'
      throw Object.assign(new Error(`reading ${path} failed: ${message.message}`), { stack: message.stack })
    }
    if (!job) return
    if (message.type === 'batch') {
      if (!job.lost) {
        const outcome = hooks.commit(message.batch)
        if (outcome.committed) {
          job.inserted += outcome.inserted
          job.reset ||= message.batch.reset
          hooks.onCommit(message.bytes, outcome.inserted)
        } else job.lost = true
      }
      Atomics.add(credits, 0, 1)
      Atomics.notify(credits, 0)
      return
    }
    jobs.delete(message.job)
    hooks.onFile(
      job.location,
      job.lost
        ? hooks.syncAlone(job.location)
        : {
            status: message.missing ? 'missing' : 'caught-up',
            inserted: job.inserted,
            reset: job.reset || message.reset,
            movedFrom: job.movedFrom,
            pendingBytes: message.pendingBytes,
            retryAt: message.retryAt,
          },
    )
  }
  const drain = (): void => {
    if (failure) throw failure
    for (let message = inbox.shift(); message; message = inbox.shift()) handle(message)
  }
  const settle = async (): Promise<void> => {
    drain()
    if (inbox.length > 0 || failure) return
    await hooks.pause(
      new Promise<void>((resolve) => {
        wake = resolve
      }),
    )
    wake = null
    drain()
  }

  try {
    let next = 0
    for (const location of work) {
      if (options.signal?.aborted) return
      const prepared = hooks.prepareFile(location)
      if (!isPrepared(prepared)) {
        hooks.onFile(location, prepared)
        continue
      }
      closeSync(prepared.fd)
      const job = next++
      jobs.set(job, { location, movedFrom: prepared.movedFrom, lost: false, inserted: 0, reset: false })
      send({ type: 'file', job, row: prepared.row, mode: options.mode, now: options.now() })
      drain()
      while (jobs.size >= lookahead) await settle()
    }
    while (jobs.size > 0 && !options.signal?.aborted) await settle()
  } finally {
    closing = true
    await worker.terminate()
  }
}

/**
 * Starts `capture-worker.js` beside this module. Run from source (tests and benches load `.ts`
 * through tsx), the worker is `capture-worker.ts`, and Node 20 does not pass a loader registered
 * with `--import` on to worker threads, so the worker registers tsx itself before loading it.
 */
function startWorker(setup: WorkerSetup): Worker {
  const fromSource = extname(fileURLToPath(import.meta.url)) === '.ts'
  const url = new URL(`./capture-worker${fromSource ? '.ts' : '.js'}`, import.meta.url)
  if (!fromSource) return new Worker(url, { workerData: setup })
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}) })`
  return new Worker(boot, { eval: true, workerData: setup })
}
