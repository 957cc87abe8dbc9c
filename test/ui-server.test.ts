import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { isolatedEnv, runCli, runCliJson } from './helpers/run-cli.ts'
import { samples } from './helpers/secret-samples.ts'
import { tmpGitRepo } from './helpers/tmp-git-repo.ts'
import { type SseEvent, startUi } from './helpers/ui-process.ts'

/**
 * The dashboard's server as a user runs it: `sangam ui` (the compiled CLI) on a real repository
 * and data dir, spoken to over real HTTP, beside real CLI processes that change the store.
 */

async function world() {
  const repo = tmpGitRepo({ commit: true })
  const env = isolatedEnv(repo.path.replace(/\/repo$/, ''), { SANGAM_USER: 'asha@example.com' })
  await runCliJson(['init', '--no-mcp'], { cwd: repo.path, env })
  const cli = (args: readonly string[], extra: Record<string, string> = {}) =>
    runCli(args, { cwd: repo.path, env: { ...env, ...extra } })
  const json = <T>(args: readonly string[], extra: Record<string, string> = {}) =>
    runCliJson<T>(args, { cwd: repo.path, env: { ...env, ...extra } })
  const ui = await startUi(['ui', '--no-open', '--json'], { cwd: repo.path, env })
  return {
    repo,
    env,
    cli,
    json,
    ui,
    [Symbol.asyncDispose]: async () => {
      await ui.stop()
      await repo[Symbol.asyncDispose]()
    },
  }
}

const origin = (port: number) => `http://127.0.0.1:${port}`

test('the gate: no token is 401, the URL token becomes an HttpOnly cookie, a foreign Host and cross-origin writes are 403', async () => {
  await using w = await world()
  const { ui } = w
  assert.match(ui.url, /^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/)
  assert.equal(ui.lines[0]?.pid, ui.child.pid)

  for (const path of ['/', '/api/now', '/api/events', '/app/main.js', '/vendor/preact.mjs']) {
    const answer = await ui.request(path, { anonymous: true })
    assert.equal(answer.status, 401, path)
    assert.equal(answer.json<{ error: { code: string } }>().error.code, 'UNAUTHORIZED')
  }
  assert.equal((await ui.request('/api/now', { headers: { cookie: `${ui.cookie}x` } })).status, 401)
  // Another port's cookie (another dashboard) is not this one's.
  assert.equal((await ui.request('/api/now', { headers: { cookie: `sangam-ui-1=${ui.token}` } })).status, 401)

  const adopt = await ui.request(`/?token=${ui.token}`, { anonymous: true })
  assert.equal(adopt.status, 303)
  assert.equal(adopt.headers.location, '/')
  const setCookie = adopt.headers['set-cookie']?.[0] ?? ''
  assert.match(setCookie, new RegExp(`^sangam-ui-${ui.port}=${ui.token};`))
  assert.match(setCookie, /HttpOnly/)
  assert.match(setCookie, /SameSite=Strict/)
  const shell = await ui.request('/', { headers: { cookie: setCookie.split(';')[0] } })
  assert.equal(shell.status, 200)
  assert.match(shell.body, /<script type="module" src="\/app\/main.js"><\/script>/)
  assert.match(String(shell.headers['content-security-policy']), /frame-ancestors 'none'/)
  assert.equal(shell.headers['cache-control'], 'no-store')
  assert.equal(shell.headers['referrer-policy'], 'no-referrer')

  for (const host of [
    'evil.example',
    `evil.example:${ui.port}`,
    `127.0.0.1:${ui.port + 1}`,
    `[::1]:${ui.port}`,
  ]) {
    const answer = await ui.request('/api/now', { headers: { host } })
    assert.equal(answer.status, 403, host)
    assert.equal(answer.json<{ error: { code: string } }>().error.code, 'FORBIDDEN')
  }
  assert.equal((await ui.request('/api/now', { headers: { host: `localhost:${ui.port}` } })).status, 200)

  const text = 'posted from elsewhere'
  for (const headers of [
    { origin: 'http://evil.example' },
    { origin: `http://localhost:${ui.port + 1}` },
    { 'sec-fetch-site': 'cross-site' },
    { 'content-type': 'application/x-www-form-urlencoded' },
    { 'content-type': 'text/plain' },
  ]) {
    const answer = await ui.request('/api/messages', { method: 'POST', json: { text }, headers })
    assert.equal(answer.status, 403, JSON.stringify(headers))
  }
  const claim = await ui.request('/api/leases', {
    method: 'POST',
    json: { paths: ['README.md'], reason: 'x' },
    headers: { origin: 'http://evil.example' },
  })
  assert.equal(claim.status, 403)
  const { messages } = await w.json<{ messages: unknown[] }>(['read'])
  assert.deepEqual(messages, [], 'no refused write reached the store')
  const { leases } = await w.json<{ leases: unknown[] }>(['leases'])
  assert.deepEqual(leases, [])
})

test('a post from the page is read by sangam read; a secret is refused with the CLI’s code and message', async () => {
  await using w = await world()
  const { ui } = w
  const posted = await ui.request('/api/messages', {
    method: 'POST',
    json: { text: 'the board page is mine', topic: 'ui' },
    headers: { origin: origin(ui.port), 'sec-fetch-site': 'same-origin' },
  })
  assert.equal(posted.status, 200, posted.body)
  const { message } = posted.json<{ message: { id: string; sender: string } }>()
  assert.equal(message.sender, 'asha@example.com')
  const { messages } = await w.json<{ messages: { id: string; text: string; topic: string }[] }>(['read'])
  assert.deepEqual(
    messages.map((each) => [each.id, each.text, each.topic]),
    [[message.id, 'the board page is mine', 'ui']],
  )
  assert.deepEqual((await ui.request('/api/messages')).json(), { messages })

  const secret = `deploy with ${samples.github[0] ?? ''}`
  const refused = await ui.request('/api/messages', { method: 'POST', json: { text: secret } })
  const fromCli = await w.cli(['post', secret, '--json'])
  assert.equal(refused.status, 422)
  assert.notEqual(fromCli.code, 0)
  assert.deepEqual(refused.json(), JSON.parse(fromCli.stdout))
  assert.equal((await w.json<{ messages: unknown[] }>(['read'])).messages.length, 1)
})

test('the reads answer with the CLI’s --json shapes, from state made by CLI processes', async () => {
  await using w = await world()
  const { ui } = w
  await w.json(['post', 'who takes the lanes page?'])
  const { thread } = await w.json<{ thread: { id: string } }>([
    'thread-open',
    '--title',
    'Pick a chart library',
    '--audience',
    'human-loop',
  ])
  await w.json(['claim', 'README.md', '--reason', 'rewriting the intro'])
  await w.json(['claim', 'src/**', '--reason', 'the agent works here'], { SANGAM_USER: 'bo@example.com' })
  const note = await w.json<{ id: string }>(['note', 'uPlot it is: small, fast, no build step'])

  const get = async (path: string) => {
    const answer = await ui.request(path)
    assert.equal(answer.status, 200, `${path}: ${answer.body}`)
    return answer.json()
  }
  // `collisions` says when someone last looked and whether this read did (D350): the same shape,
  // its values as the two reads found them.
  const same = async (path: string, args: readonly string[]) => {
    const { collisions: theirs, ...dashboard } = (await get(path)) as { collisions: { note: unknown } }
    const { collisions: ours, ...cli } = await w.json<{ collisions: { note: unknown } }>(args)
    assert.deepEqual(dashboard, cli, path)
    assert.deepEqual(Object.keys(theirs).sort(), Object.keys(ours).sort(), path)
    assert.deepEqual([theirs.note, ours.note], [null, null], path)
  }
  await same('/api/board', ['board'])
  await same('/api/threads', ['threads'])
  await same('/api/threads?all=1', ['threads', '--all'])
  assert.deepEqual(await get('/api/messages?limit=500'), await w.json(['read', '--limit', '500']))
  assert.deepEqual(await get('/api/leases'), await w.json(['leases']))
  assert.deepEqual(await get('/api/targets'), await w.json(['targets']))
  assert.deepEqual(await get(`/api/timeline/${note.id}/thread`), await w.json(['thread', note.id]))

  const now = (await get('/api/now')) as {
    project: { id: string; name: string }
    me: { handle: string; name: string }
    live: { daemon: boolean; attached: boolean }
    actors: { handle: string; name: string; kind: string; state: string }[]
    blockedOnHuman: { id: string }[]
    messages: { text: string }[]
  }
  assert.equal(now.project.name, 'repo')
  assert.match(now.project.id, /^prj_[0-9a-f]{16}$/)
  assert.deepEqual(now.me, { handle: 'asha', name: 'asha@example.com' })
  assert.deepEqual(now.live, { daemon: false, attached: false })
  assert.deepEqual(
    now.actors.map((actor) => [actor.handle, actor.name, actor.kind, actor.state]),
    [['asha', 'asha@example.com', 'human', 'online']],
  )
  assert.deepEqual(
    now.blockedOnHuman.map((each) => each.id),
    [thread.id],
  )
  assert.deepEqual(
    now.messages.map((each) => each.text),
    ['who takes the lanes page?'],
  )

  const timeline = (await get('/api/timeline?kind=note')) as {
    events: { id: string; text: string }[]
    next: null
  }
  assert.deepEqual(
    timeline.events.map((event) => event.id),
    [note.id],
  )
  const search = (await get('/api/timeline?q=uplot')) as { events: { id: string; snippet: string }[] }
  const fromCli = await w.json<{ hits: { id: string; snippet: string }[] }>(['search', 'uplot'])
  assert.deepEqual(
    search.events.map((event) => [event.id, event.snippet]),
    fromCli.hits.map((hit) => [hit.id, hit.snippet]),
  )
  const charts = (await get('/api/charts')) as { eventsPerHour: { count: number }[] }
  assert.equal(charts.eventsPerHour.length, 24)
  assert.equal(charts.eventsPerHour.at(-1)?.count, 1, 'the note, this hour')
  const lanes = (await get('/api/lanes')) as Record<string, unknown>
  const ready = await w.json<Record<string, unknown>>(['ready'])
  const status = await w.json<{
    main: string | null
    mainBranch: string
    lock: unknown
    guard: unknown
    lanes: unknown[]
  }>(['status'])
  assert.deepEqual(lanes, {
    ready,
    readyError: null,
    lanes: status.lanes,
    lock: status.lock,
    main: { branch: status.mainBranch, commit: status.main },
    guard: status.guard,
    mainOutside: null,
    publishes: [],
    lanesError: null,
  })
})

test('writes from the page go through the use cases: threads opened and closed, leases claimed, refused and released', async () => {
  await using w = await world()
  const { ui } = w
  const post = (path: string, json: unknown) =>
    ui.request(path, { method: 'POST', json, headers: { origin: origin(ui.port) } })

  const opened = await post('/api/threads', { title: 'Ship the dashboard', text: 'first cut by Friday' })
  assert.equal(opened.status, 200, opened.body)
  const { thread } = opened.json<{ thread: { id: string; status: string } }>()
  const closed = await post(`/api/threads/${thread.id}/close`, { text: 'shipped' })
  assert.equal(closed.json<{ thread: { status: string } }>().thread.status, 'closed')
  const { threads } = await w.json<{ threads: { id: string; status: string }[] }>(['threads', '--all'])
  assert.deepEqual(
    threads.map((each) => [each.id, each.status]),
    [[thread.id, 'closed']],
  )
  const { messages } = await w.json<{ messages: { text: string; threadId: string }[] }>(['read'])
  assert.deepEqual(
    messages.map((each) => [each.text, each.threadId]),
    [
      ['first cut by Friday', thread.id],
      ['shipped', thread.id],
    ],
  )
  const inThread = await ui.request(`/api/messages?thread=${thread.id}&limit=1`)
  assert.deepEqual(
    inThread.json<{ messages: { text: string }[] }>().messages.map((each) => each.text),
    ['first cut by Friday'],
  )

  const claimed = await post('/api/leases', { paths: ['docs/**'], reason: 'the dashboard docs', ttl: '30m' })
  assert.equal(claimed.status, 200, claimed.body)
  assert.equal(claimed.json<{ granted: boolean }>().granted, true)
  const { leases } = await w.json<{ leases: { pattern: string; holder: { human: string } }[] }>(['leases'])
  assert.deepEqual(
    leases.map((lease) => [lease.pattern, lease.holder.human]),
    [['docs/**', 'asha@example.com']],
  )
  await w.json(['claim', 'src/ui.ts', '--reason', 'mine'], { SANGAM_USER: 'bo@example.com' })
  const taken = await post('/api/leases', { paths: ['src/ui.ts'], reason: 'also mine' })
  assert.equal(taken.status, 409)
  const conflict = taken.json<{
    granted: boolean
    conflicts: unknown[]
    error: { code: string; message: string }
  }>()
  assert.equal(conflict.granted, false)
  assert.equal(conflict.conflicts.length, 1)
  assert.equal(conflict.error.code, 'LEASE_CONFLICT')
  assert.match(conflict.error.message, /bo@example\.com/)

  const released = await post('/api/leases/release', {})
  assert.equal(released.json<{ released: unknown[] }>().released.length, 1)
  assert.deepEqual(
    (await w.json<{ leases: { pattern: string }[] }>(['leases'])).leases.map((lease) => lease.pattern),
    ['src/ui.ts'],
  )
})

test('bad input: each is refused with its status and nothing changes', async () => {
  await using w = await world()
  const { ui } = w
  const cases: [string, Parameters<typeof ui.request>[1], number, string][] = [
    ['/api/timeline?limit=abc', undefined, 400, 'INVALID_INPUT'],
    ['/api/timeline?limit=0', undefined, 400, 'INVALID_INPUT'],
    ['/api/timeline?kind=poem', undefined, 400, 'INVALID_INPUT'],
    ['/api/timeline?before=yesterday', undefined, 422, 'INVALID_INPUT'],
    ['/api/messages?after=msg-nope', undefined, 404, 'NOT_FOUND'],
    ['/api/timeline/ev_nope/thread', undefined, 404, 'NOT_FOUND'],
    ['/api/nothing-here', undefined, 404, 'NOT_FOUND'],
    [
      '/api/messages',
      { method: 'POST', headers: { 'content-type': 'application/json' } },
      400,
      'INVALID_INPUT',
    ],
    ['/api/messages', { method: 'POST', json: { text: 'hi', sender: 'mallory' } }, 400, 'INVALID_INPUT'],
    ['/api/messages', { method: 'POST', json: { text: '   ' } }, 422, 'INVALID_INPUT'],
    ['/api/messages', { method: 'POST', json: { text: 'hi @nobody-here' } }, 422, 'INVALID_INPUT'],
    ['/api/threads/thr-nope/close', { method: 'POST', json: {} }, 404, 'NOT_FOUND'],
    ['/api/threads', { method: 'POST', json: { title: '' } }, 422, 'INVALID_INPUT'],
    ['/api/leases', { method: 'POST', json: { paths: ['a.ts'], reason: ' ' } }, 422, 'INVALID_INPUT'],
    [
      '/api/leases',
      { method: 'POST', json: { paths: ['a.ts'], reason: 'r', ttl: 'forever' } },
      422,
      'INVALID_INPUT',
    ],
    [
      '/api/leases',
      { method: 'POST', json: { paths: ['../../etc/passwd'], reason: 'r' } },
      422,
      'INVALID_INPUT',
    ],
    ['/api/leases/release', { method: 'POST', json: { force: true, paths: ['a.ts'] } }, 422, 'INVALID_INPUT'],
  ]
  for (const [path, options, status, code] of cases) {
    const answer = await ui.request(path, options)
    const what = `${options?.method ?? 'GET'} ${path} ${JSON.stringify(options?.json)}: ${answer.body}`
    assert.equal(answer.status, status, what)
    assert.equal(answer.json<{ error: { code: string } }>().error.code, code, what)
  }
  assert.deepEqual((await w.json<{ messages: unknown[] }>(['read'])).messages, [])
  assert.deepEqual((await w.json<{ threads: unknown[] }>(['threads', '--all'])).threads, [])
  assert.deepEqual((await w.json<{ leases: unknown[] }>(['leases'])).leases, [])
})

test('a message posted from the CLI reaches an open event stream; a reconnect with Last-Event-ID misses nothing and repeats nothing', async () => {
  await using w = await world()
  const { ui } = w
  const first = ui.stream()
  assert.equal(await first.status, 200)
  const hello = await first.waitFor((event) => event.event === 'hello')
  const helloCursor = Number(hello.id)
  await w.json(['post', 'from a terminal'])
  const change = await first.waitFor((event) => event.event === 'change')
  const data = JSON.parse(change.data) as { topics: string[]; cursor: number }
  assert.ok(data.topics.includes('messages'), change.data)
  assert.equal(data.cursor, helloCursor + 1)
  assert.equal(change.id, String(data.cursor))
  first.close()

  // While no page listens: a post, a claim, a note, each its own commit.
  await w.json(['post', 'while you were away'])
  await w.json(['claim', 'README.md', '--reason', 'intro'])
  await w.json(['note', 'decided: SSE, not a socket'])
  // The server has seen all three once its messages, leases and events marks have moved.
  const probe = ui.stream({ lastEventId: change.id ?? '' })
  const covered = new Set<string>()
  await probe.waitFor((event) => {
    for (const topic of (JSON.parse(event.data) as { topics?: string[] }).topics ?? []) covered.add(topic)
    return ['messages', 'leases', 'events'].every((topic) => covered.has(topic))
  })
  probe.close()

  const again = ui.stream({ lastEventId: change.id ?? '' })
  await again.waitFor(
    (event) => Number(event.id) === Math.max(...probe.events.map((each) => Number(each.id))),
  )
  await w.json(['post', 'and one more, live'])
  const live = await again.waitFor(
    (event) =>
      (JSON.parse(event.data) as { topics?: string[] }).topics?.includes('messages') === true &&
      Number(event.id) > Number(probe.events.at(-1)?.id),
  )
  again.close()
  const cursors = again.events.map((event: SseEvent) => Number(event.id))
  assert.ok(
    again.events.every((event) => event.event === 'change'),
    'a resumed stream starts with the changes, not hello',
  )
  assert.deepEqual(
    cursors,
    cursors.map((_, i) => data.cursor + 1 + i),
    'every change after the one seen, once, in order',
  )
  assert.deepEqual(
    again.events.slice(0, probe.events.length),
    probe.events,
    'the replay is the same for every reconnect from that cursor',
  )
  assert.equal(Number(live.id), cursors.at(-1))

  const stale = ui.stream({ lastEventId: '999999' })
  const reset = await stale.waitFor(() => true)
  stale.close()
  assert.equal(reset.event, 'reset')
})

test('sangam up --ui serves the dashboard beside the daemon; a taken port is a usage error', async () => {
  const repo = tmpGitRepo({ commit: true })
  await using _ = repo
  const env = isolatedEnv(repo.path.replace(/\/repo$/, ''), { SANGAM_USER: 'asha@example.com' })
  await runCliJson(['init', '--no-mcp'], { cwd: repo.path, env })
  await using up = await startUi(['up', '--ui', '--no-open', '--json'], { cwd: repo.path, env })
  assert.equal(up.lines[0]?.type, 'started')
  const now = (await up.request('/api/now')).json<{ live: { daemon: boolean } }>()
  assert.equal(now.live.daemon, true)

  const taken = await runCli(['ui', '--no-open', '--port', String(up.port), '--json'], {
    cwd: repo.path,
    env,
  })
  assert.equal(taken.code, 2)
  assert.match(
    JSON.parse(taken.stdout).error.message,
    new RegExp(`port ${up.port} on 127\\.0\\.0\\.1 is in use`),
  )
  assert.equal(await up.stop(), 0)
})

test('without --no-open the URL goes to xdg-open; with no opener at all the dashboard still serves', async () => {
  const repo = tmpGitRepo({ commit: true })
  await using _ = repo
  const home = repo.path.replace(/\/repo$/, '')
  const bin = join(home, 'bin')
  mkdirSync(bin)
  symlinkSync(execFileSync('which', ['git'], { encoding: 'utf8' }).trim(), join(bin, 'git'))
  const env = isolatedEnv(home, { SANGAM_USER: 'asha@example.com', PATH: bin })
  await runCliJson(['init', '--no-mcp'], { cwd: repo.path, env })
  {
    // No xdg-open on this PATH: nothing to open with, nothing fails.
    await using ui = await startUi(['ui', '--json'], { cwd: repo.path, env })
    assert.equal((await ui.request('/api/now')).status, 200)
  }
  const opened = join(home, 'opened.txt')
  writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`, { mode: 0o755 })
  await using ui = await startUi(['ui', '--json'], { cwd: repo.path, env })
  for (let i = 0; i < 100 && !existsSync(opened); i++) await new Promise((resolve) => setTimeout(resolve, 50))
  assert.equal(readFileSync(opened, 'utf8'), ui.url)
})
