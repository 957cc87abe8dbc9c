import { closeSync, openSync } from 'node:fs'
import { parentPort, workerData } from 'node:worker_threads'
import type { CaptureBatch } from '../store/capture-store.ts'
import type { SourceFileRow } from '../store/source-file-table.ts'
import { type ReadMode, readBatches } from './capture-read.ts'
import { readerFor } from './capture-readers.ts'

/**
 * The reading half of a parallel backfill, run in a worker thread: for each file the main thread
 * sends (its row as committed), it reads the batches and posts them back; the main thread commits
 * them, so every commit still goes through one connection and the offset check. A batch is posted
 * only against a credit, which the main thread returns once it has committed one: memory stays
 * bounded however far the reader could run ahead.
 */
export interface WorkerSetup {
  readonly author: string
  readonly quietMs: number
  readonly batchLines: number
  readonly batchBytes: number
  readonly credits: number
}

export type ToWorker =
  | {
      readonly type: 'file'
      readonly job: number
      readonly row: SourceFileRow
      readonly mode: ReadMode
      readonly now: number
    }
  | { readonly type: 'credit' }

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
const jobs: Extract<ToWorker, { type: 'file' }>[] = []
let credits = setup.credits
let wake: (() => void) | null = null

port.on('message', (message: ToWorker) => {
  if (message.type === 'credit') credits++
  else jobs.push(message)
  wake?.()
})

function waitForWork(ready: () => boolean): Promise<void> {
  if (ready()) return Promise.resolve()
  return new Promise((resolve) => {
    wake = () => {
      if (!ready()) return
      wake = null
      resolve()
    }
  })
}

function post(message: FromWorker): void {
  port?.postMessage(message)
}

async function readFile(job: Extract<ToWorker, { type: 'file' }>): Promise<void> {
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
      await waitForWork(() => credits > 0)
      credits--
      post({ type: 'batch', job: job.job, ...step.value })
    }
  } finally {
    closeSync(fd)
  }
}

for (;;) {
  await waitForWork(() => jobs.length > 0)
  const job = jobs.shift()
  if (!job) continue
  try {
    await readFile(job)
  } catch (error) {
    post({ type: 'failed', job: job.job, message: (error as Error).message, stack: (error as Error).stack })
  }
}
