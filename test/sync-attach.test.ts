import assert from 'node:assert/strict'
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { killAllServes } from '../server/test/helpers/serve-process.ts'
import { runCli } from './helpers/run-cli.ts'
import { syncWorld } from './helpers/sync-world.ts'
import { startProxy } from './helpers/tcp-proxy.ts'
import { git } from './helpers/tmp-git-repo.ts'
import { eventually } from './helpers/up-process.ts'

/**
 * Attaching a checkout to a team server (`init --server`, `connection`, `join`), with the compiled
 * CLI against a real `sangam serve`.
 */
after(killAllServes)

interface InitJson {
  projectId: string
  server: { status: string; created?: boolean; url: string } | null
}

interface JoinJson {
  status: string
  applied: number
  events: number
  headGseq: number
  leasesMoved: { pattern: string }[]
}

function attachment(projectDir: string): { key: string; url: string; clientId: string } {
  return JSON.parse(readFileSync(join(projectDir, 'sync.json'), 'utf8'))
}

test('init --server registers the project under a fresh key kept in a 0600 file; connection prints the line', async () => {
  await using world = await syncWorld()
  const { a } = world
  const init = await a.cliJson<InitJson>(['init', '--no-mcp', '--server', `${world.server.url}/`])
  assert.deepEqual(
    [init.server?.status, init.server?.created, init.server?.url],
    ['created', true, world.server.url],
  )
  const file = join(a.projectDir, 'sync.json')
  assert.equal(statSync(file).mode & 0o777, 0o600)
  const { key, url } = attachment(a.projectDir)
  assert.match(key, /^[A-Za-z0-9_-]{43}$/)
  for (const suffix of ['', '-wal']) {
    const path = `${a.database}${suffix}`
    if (existsSync(path)) assert.ok(!readFileSync(path).includes(key), `the key is not in sangam.db${suffix}`)
  }
  const connection = await runCli(['connection'], { cwd: a.repo, env: a.env })
  assert.equal(connection.code, 0)
  assert.equal(connection.stdout, `${url}#${init.projectId}#${key}\n`)

  const again = await a.cliJson<InitJson>(['init', '--no-mcp', '--server', world.server.url])
  assert.equal(again.server?.status, 'already-attached')
  assert.equal(attachment(a.projectDir).key, key, 'a second init keeps the key')
  const elsewhere = await a.cli(['init', '--no-mcp', '--server', 'http://127.0.0.1:9'])
  assert.equal(elsewhere.code, 2)
  assert.match(elsewhere.stderr, /attached to http:\/\/127\.0\.0\.1:\d+; to move it/)
})

test('a server that cannot be reached, or plain http to another machine, attaches nothing', async () => {
  await using world = await syncWorld()
  const { a } = world
  const down = await a.cli(['init', '--no-mcp', '--server', 'http://127.0.0.1:9'])
  assert.equal(down.code, 11, down.stderr)
  assert.match(down.stderr, /could not reach the sync server at http:\/\/127\.0\.0\.1:9/)
  const clear = await a.cli(['init', '--no-mcp', '--server', 'http://sync.example.dev'])
  assert.equal(clear.code, 2)
  assert.match(clear.stderr, /in clear/)
  assert.equal(existsSync(join(a.projectDir, 'sync.json')), false)
  assert.equal((await a.cli(['connection'])).code, 4, 'connection says: not attached')
})

test('join checks the key first: a wrong key, another project or a malformed line change nothing', async () => {
  await using world = await syncWorld()
  const { a, b } = world
  const init = await a.cliJson<InitJson>(['init', '--no-mcp', '--server', world.server.url])
  const { key, url } = attachment(a.projectDir)
  const wrongKey = `${url}#${init.projectId}#${key.slice(0, -4)}AAAA`
  const refused = await b.cli(['join', wrongKey])
  assert.equal(refused.code, 11, refused.stderr)
  assert.match(refused.stderr, /does not know project prj_[0-9a-f]{16} under this key/)
  assert.ok(!refused.stderr.includes(key.slice(0, -4)), 'the key is not echoed')
  // Another project id is the team's to give (D263), but the server must know it under this key.
  const other = await b.cli(['join', `${url}#prj_0000000000000000#${key}`])
  assert.equal(other.code, 11, other.stderr)
  assert.match(other.stderr, /does not know project prj_0000000000000000 under this key/)
  assert.equal(
    readFileSync(join(b.repo, '.git', 'sangam', 'project-id'), 'utf8').trim(),
    init.projectId,
    "b's identity is untouched",
  )
  const malformed = await b.cli(['join', `${url}#${init.projectId}`])
  assert.equal(malformed.code, 2)
  assert.equal(existsSync(join(b.projectDir, 'sync.json')), false, 'nothing attached')
})

test('join (the line on stdin) attaches and fetches everything shared so far; leases taken before move to the server', async () => {
  await using world = await syncWorld()
  const { a, b } = world
  await b.cliJson(['claim', 'docs/**', '--reason', 'rewriting the guide'])
  await a.cliJson(['init', '--no-mcp', '--server', world.server.url])
  const up = a.up()
  a.say('alice-1', 'the flamingo exporter needs retries')
  a.say('alice-1', 'and the pelican importer too')
  await eventually(
    () => up.statuses.filter((status) => status.type === 'sync-pushed').length > 0,
    20_000,
    'a push',
  )
  await eventually(
    () => up.statuses.some((status) => status.type === 'sync-applied' && Number(status.cursor) >= 2),
    20_000,
    'both turns on the server',
  )
  await up.stop()
  const line = (await runCli(['connection'], { cwd: a.repo, env: a.env })).stdout
  const joined = await b.cli(['join', '--json'], line)
  assert.equal(joined.code, 0, joined.stderr)
  const result = JSON.parse(joined.stdout) as JoinJson
  assert.deepEqual([result.status, result.events, result.headGseq >= 3], ['joined', 2, true])
  assert.deepEqual(
    result.leasesMoved.map((lease) => lease.pattern),
    ['docs/**'],
  )
  assert.equal(b.search('flamingo'), 1)
  assert.equal(b.search('pelican'), 1)
  const [found] = b.events().filter((event) => event.text.includes('flamingo'))
  const thread = await b.cli(['thread', found?.id ?? ''])
  assert.match(thread.stdout, /flamingo exporter/)
  const refused = await a.cli(['claim', 'docs/guide.md', '--reason', 'typo', '--json'])
  assert.equal(refused.code, 5, "bob's moved lease keeps alice out, through the server")
  const conflict = JSON.parse(refused.stdout) as { conflicts: { lease: { holder: { human: string } } }[] }
  assert.equal(conflict.conflicts[0]?.lease.holder.human, 'bob@x.dev')
})

test("join makes the line's project id this checkout's when its clone derives another, moving its store along", async () => {
  await using world = await syncWorld()
  const { a, b } = world
  // Bob's clone came from another URL, so it derives another id; his store holds a lease already.
  rmSync(b.projectDir, { recursive: true })
  rmSync(join(b.repo, '.git', 'sangam', 'project-id'))
  git(b.repo, 'remote', 'set-url', 'origin', 'git@github.com:bob/widget-mirror.git')
  const bobInit = await b.cliJson<InitJson>(['init', '--no-mcp'])
  await b.cliJson(['claim', 'docs/**', '--reason', 'rewriting the guide'])
  const init = await a.cliJson<InitJson>(['init', '--no-mcp', '--server', world.server.url])
  assert.notEqual(bobInit.projectId, init.projectId)
  await a.cliJson(['claim', 'src/**', '--reason', 'alice refactors'])
  const line = (await runCli(['connection'], { cwd: a.repo, env: a.env })).stdout
  const joined = await b.cli(['join', '--json'], line)
  assert.equal(joined.code, 0, joined.stderr)
  const result = JSON.parse(joined.stdout) as JoinJson & { identity: unknown }
  assert.deepEqual(result.identity, {
    from: bobInit.projectId,
    to: init.projectId,
    storeMoved: true,
    storeKept: null,
  })
  assert.deepEqual(
    result.leasesMoved.map((lease) => lease.pattern),
    ['docs/**'],
    "bob's lease came along with his store",
  )
  assert.equal(readFileSync(join(b.repo, '.git', 'sangam', 'project-id'), 'utf8').trim(), init.projectId)
  assert.equal(existsSync(join(b.home, '.sangam', 'projects', bobInit.projectId)), false)
  const leases = await b.cliJson<{ leases: { pattern: string }[] }>(['leases'])
  assert.deepEqual(leases.leases.map((lease) => lease.pattern).sort(), ['docs/**', 'src/**'])
  const refused = await a.cli(['claim', 'docs/guide.md', '--reason', 'typo', '--json'])
  assert.equal(refused.code, 5, "bob's lease keeps alice out, through the server")
})

test('the key crosses the wire only in the Authorization header, and appears in no output but connection', async () => {
  await using world = await syncWorld()
  await using proxy = await startProxy(world.server.url)
  const { a, b } = world
  await a.cliJson(['init', '--no-mcp', '--server', proxy.url])
  const { key } = attachment(a.projectDir)
  const line = (await runCli(['connection'], { cwd: a.repo, env: a.env })).stdout
  await b.cli(['join'], line)
  const upA = a.up()
  const upB = b.up()
  a.say('alice-1', 'the narwhal cache is stale')
  await eventually(() => b.search('narwhal') === 1, 20_000, 'the turn on bob')
  await b.cliJson(['claim', 'src/cache.ts', '--reason', 'cache rework'])
  await a.cliJson(['note', 'we keep the cache for now'])
  await a.cliJson(['brief'])
  await upA.stop()
  await upB.stop()
  const requests = proxy.requests()
  assert.ok(requests.length > 5, 'the clients talked through the proxy')
  for (const request of requests) {
    const [requestLine = ''] = request.split('\r\n')
    assert.ok(!requestLine.includes(key), `no key in ${requestLine}`)
    if (/^(GET|POST) \/v1\/projects\//.test(requestLine))
      assert.match(request, new RegExp(`\\r\\nauthorization: Bearer ${key}\\r\\n`, 'i'), requestLine)
  }
  for (const output of world.outputs)
    assert.ok(!output.includes(key), `the key leaked into: ${output.slice(0, 200)}`)
})

test('a daemon running before the checkout joins starts replicating when it does', async () => {
  await using world = await syncWorld()
  const { a, b } = world
  await a.cliJson(['init', '--no-mcp', '--server', world.server.url])
  await using upB = b.up()
  await upB.waitFor('ready')
  const line = (await runCli(['connection'], { cwd: a.repo, env: a.env })).stdout
  assert.equal((await b.cli(['join'], line)).code, 0)
  await upB.waitFor('sync-connected', 20_000)
  await using upA = a.up()
  await upA.waitFor('sync-connected')
  a.say('alice-1', 'the dugong parser is ready')
  await eventually(
    () => b.search('dugong') === 1,
    20_000,
    'the turn on bob, through the daemon that ran first',
  )
})
