import assert from 'node:assert/strict'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../test/helpers/tmp-git-repo.ts'
import { runningDaemon } from '../config/daemon-discovery.ts'
import { isAlive } from '../shared/process-alive.ts'
import { isSangamError } from '../shared/sangam-error.ts'
import { DaemonLock } from './daemon-lock.ts'

/** A pid no process has: far above the kernel's pid_max default. */
const deadPid = 2 ** 22 + 17
const info = (pid: number) => ({ pid, version: '0.1.0', startedAt: '2026-11-29T10:00:00.000Z' })

test('the lock file is written whole, names its holder, and is removed on release', async () => {
  await using dir = tmpDir()
  const file = join(dir.path, 'daemon.json')
  const lock = DaemonLock.acquire(file, info(process.pid))
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), info(process.pid))
  assert.deepEqual(runningDaemon(file), info(process.pid))
  lock.release()
  assert.equal(existsSync(file), false)
  assert.equal(runningDaemon(file), null)
})

test('a second daemon is refused with DAEMON_RUNNING while the holder lives', async () => {
  await using dir = tmpDir()
  const file = join(dir.path, 'daemon.json')
  DaemonLock.acquire(file, info(process.pid))
  assert.throws(
    () => DaemonLock.acquire(file, info(deadPid)),
    (error) =>
      isSangamError(error) && error.code === 'DAEMON_RUNNING' && error.message.includes(`pid ${process.pid}`),
  )
})

test('a file left by a dead daemon, or an unreadable one, is replaced', async () => {
  await using dir = tmpDir()
  const file = join(dir.path, 'daemon.json')
  assert.equal(isAlive(deadPid), false)
  writeFileSync(file, JSON.stringify(info(deadPid)))
  DaemonLock.acquire(file, info(process.pid)).release()
  writeFileSync(file, '{"pid": "not a pid"')
  const lock = DaemonLock.acquire(file, info(process.pid))
  assert.equal(runningDaemon(file)?.pid, process.pid)
  lock.release()
})

test('release leaves alone a file that another daemon has since taken', async () => {
  await using dir = tmpDir()
  const file = join(dir.path, 'daemon.json')
  const lock = DaemonLock.acquire(file, info(process.pid))
  writeFileSync(file, JSON.stringify(info(1)))
  lock.release()
  assert.equal(existsSync(file), true)
})
