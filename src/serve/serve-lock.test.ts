import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { test } from 'node:test'
import { stopProcess } from './serve-lock.ts'

test('stopping a process that is already gone (ESRCH) is done, not an error', async () => {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
  const pid = child.pid
  assert.ok(pid)
  await once(child, 'exit')
  assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, 'the process is gone and reaped')
  await stopProcess(pid)
})

test('a running process is stopped', async () => {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
  const exited = once(child, 'exit')
  assert.ok(child.pid)
  await stopProcess(child.pid)
  const [code, signal] = await exited
  assert.equal(code, null)
  assert.equal(signal, 'SIGTERM')
})
