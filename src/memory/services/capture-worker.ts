import { closeSync, openSync } from 'node:fs'
import { parentPort, workerData } from 'node:worker_threads'
import { readerFor } from '../../agents/transcript-readers.ts'
import type { CaptureBatch } from '../store/capture-store.ts'
import type { SourceFileRow } from '../store/source-file-table.ts'
import { type ReadMode, readBatches } from './read-batches.ts'

/**
 * The reading half of a parallel backfill, run in a worker thread: for each file the main thread
 * sends (its row as committed), it reads the batches and posts them back; the main thread commits
 * them, so every commit still goes through one connection and the offset check. A batch is posted
 * only against a credit, which the main thread returns once it has committed one: memory stays
 * bounded however far the reader could run ahead. Credits are a counter in shared memory rather
 * than messages: a message per committed batch cost the committing thread more than the counter.
 */
export interface WorkerSetup {
  readonly author: string
  readonly quietMs: number
  readonly batchLines: number
  readonly batchBytes: number
  /** One Int32 over a SharedArrayBuffer: batches this worker may still post uncommitted. */
  readonly credits: Int32Array
}

export interface ToWorker {
  readonly type: 'file'
  readonly job: number
  readonly row: SourceFileRow
  readonly mode: ReadMode
  readonly now: number
}

export type FromWorker =
  | {
      readonly type: 'batch'
      readonly job: number
      readonly batch: CaptureBatch
      readonly bytes: number
      readonly last: boolean
    }
  | {
      readonly type: 'done'
      readonly job: number
      readonly missing: boolean
      readonly reset: boolean
      readonly pendingBytes: number
      readonly retryAt: number | null
    }
  | {
      readonly type: 'failed'
      readonly job: number
      readonly message: string
      readonly stack: string | undefined
    }

const port = parentPort
if (!port) throw new Error('capture-worker.ts runs as a worker thread')
const setup = workerData as WorkerSetup
const jobs: ToWorker[] = []
let wake: (() => void) | null = null

port.on('message', (message: ToWorker) => {
  jobs.push(message)
  wake?.()
})

/**
 * Blocks until the main thread has committed enough to grant a credit. Blocking is fine here: with
 * no credit this thread has nothing else to do, and the files sent meanwhile wait in the port.
 */
function takeCredit(credits: Int32Array): void {
  while (Atomics.load(credits, 0) === 0) Atomics.wait(credits, 0, 0)
  Atomics.sub(credits, 0, 1)
}

function post(message: FromWorker): void {
  port?.postMessage(message)
}

function readFile(job: ToWorker): void {
  let fd: number
  try {
    fd = openSync(job.row.path, 'r')
  } catch {
    post({ type: 'done', job: job.job, missing: true, reset: false, pendingBytes: 0, retryAt: null })
    return
  }
  try {
    const context = { ...setup, readerFor, now: () => job.now }
    const batches = readBatches(context, job.row, fd, job.mode)
    for (let step = batches.next(); ; step = batches.next()) {
      if (step.done) {
        post({ type: 'done', job: job.job, missing: false, ...step.value })
        return
      }
      takeCredit(setup.credits)
      post({ type: 'batch', job: job.job, ...step.value })
    }
  } finally {
    closeSync(fd)
  }
}

for (;;) {
  const job = jobs.shift()
  if (!job) {
    await new Promise<void>((resolve) => {
      wake = resolve
    })
    continue
  }
  try {
    readFile(job)
  } catch (error) {
    post({ type: 'failed', job: job.job, message: (error as Error).message, stack: (error as Error).stack })
  }
}
