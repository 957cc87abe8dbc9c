import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { promisify } from 'node:util'
import { killAllServes, startServeWith } from './helpers/serve-process.ts'

const cliEntry = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js')
const home = realpathSync(mkdtempSync(join(tmpdir(), 'sangam-serve-cli-')))
after(() => {
  killAllServes()
  rmSync(home, { recursive: true, force: true })
})

async function runServe(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [cliEntry, 'serve', ...args], {
      env: { PATH: process.env.PATH, HOME: home, SANGAM_HOME: join(home, '.sangam') },
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

test('serve prints exactly its URL first, serves there, and stops in order on SIGTERM', async () => {
  const serve = await startServeWith(['--port', '0', '--json'], home)
  assert.match(serve.url, /^http:\/\/127\.0\.0\.1:\d+$/)
  const health = await fetch(`${serve.url}/v1/health`)
  assert.equal(health.status, 200)
  const dataDir = join(home, '.sangam', 'server')
  assert.equal(statSync(dataDir).mode & 0o777, 0o700, 'the default data dir is private, under SANGAM_HOME')
  assert.ok(existsSync(join(dataDir, 'serve.lock')))
  assert.equal(await serve.stop('SIGTERM'), 0, serve.stderr())
  const [first, ...rest] = serve.stdout().split('\n')
  assert.equal(first, serve.url)
  const port = Number(new URL(serve.url).port)
  const answer = JSON.parse(rest.join('\n')) as {
    runtime: { package: string; version: string; installed: boolean }
  }
  // The runtime this checkout has (a devDependency): found, not installed by this run (docs/cli.md).
  const { version } = JSON.parse(
    readFileSync(join(import.meta.dirname, '..', '..', 'node_modules', 'miniflare', 'package.json'), 'utf8'),
  ) as {
    version: string
  }
  assert.deepEqual(answer, {
    url: serve.url,
    host: '127.0.0.1',
    port,
    dataDir,
    runtime: { package: 'miniflare', version, installed: false },
  })
  assert.equal(existsSync(join(dataDir, 'serve.lock')), false, 'the lock goes with the server')
  await assert.rejects(fetch(`${serve.url}/v1/health`))
})

test('serve stops in order on SIGINT too, printing nothing more in text mode', async () => {
  const serve = await startServeWith(['--port', '0', '--data', join(home, 'sigint')], home)
  assert.equal(await serve.stop('SIGINT'), 0, serve.stderr())
  assert.equal(serve.stdout(), `${serve.url}\n`)
})

test('a bad or taken port is a usage error that says what to do', async () => {
  const bad = await runServe(['--port', 'eighty'])
  assert.equal(bad.code, 2)
  assert.match(bad.stderr, /--port takes a whole number from 0 to 65535/)
  const serve = await startServeWith(['--port', '0', '--data', join(home, 'taken')], home)
  const port = new URL(serve.url).port
  const taken = await runServe(['--port', port, '--data', join(home, 'other')])
  assert.equal(taken.code, 2)
  assert.match(taken.stderr, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use`))
  assert.equal(taken.stdout, '', 'nothing on stdout, so no script mistakes it for a URL')
  assert.equal(await serve.stop(), 0, serve.stderr())
})
