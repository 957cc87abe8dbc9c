import { type ChildProcess, spawn } from 'node:child_process'
import { createInterface } from 'node:readline'

/** Another process holding a project's store locked, until released. */
export interface StoreLock extends AsyncDisposable {
  readonly child: ChildProcess
  /** Ends the holder and resolves once it has exited, so the lock is really gone. */
  release(): Promise<void>
}

/**
 * Another writer mid-transaction (a daemon committing a batch): `BEGIN IMMEDIATE` and a write, held.
 * Readers are not blocked in WAL mode; every other writer waits out its busy timeout.
 */
export function holdWriteLock(database: string): Promise<StoreLock> {
  return hold(database, [])
}

/** The store in EXCLUSIVE locking mode, mid-transaction: not even readers get in. */
export function holdExclusiveLock(database: string): Promise<StoreLock> {
  return hold(database, ["db.exec('PRAGMA locking_mode = EXCLUSIVE')"])
}

function hold(database: string, setup: readonly string[]): Promise<StoreLock> {
  const script = `
    const { DatabaseSync } = require('node:sqlite')
    const db = new DatabaseSync(process.argv[1])
    ${setup.join('\n')}
    db.exec('BEGIN ${setup.length === 0 ? 'IMMEDIATE' : 'EXCLUSIVE'}')
    db.exec("INSERT INTO setting (key, value) VALUES ('lock-test', '1')")
    console.log('locked')
    setInterval(() => {}, 1000)`
  const child = spawn(process.execPath, ['-e', script, database], { stdio: ['ignore', 'pipe', 'inherit'] })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const release = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill()
    await exited
  }
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    createInterface({ input: child.stdout }).once('line', () =>
      resolve({ child, release, [Symbol.asyncDispose]: release }),
    )
  })
}
