import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import { captureWorld } from './helpers/capture-transcripts.ts'
import { accountedCaptureFile, type DoctorJson } from './helpers/doctor-json.ts'
import { runCliJson } from './helpers/run-cli.ts'
import { eventually, startUp } from './helpers/up-process.ts'

const fixtures = join(import.meta.dirname, 'fixtures')
/** The project root the recorded sessions name (test/fixtures/README.md). */
const recordedRoot = '/home/dev/heron'

interface SearchHit {
  kind: string
  vendor: string
  sessionId: string
  cliVersion: string | null
}

test("Gemini CLI 0.38's rewritten documents and opencode 1.1's JSON storage are captured once each, searchable, every journal line accounted", async () => {
  await using w = await captureWorld()
  const cli = { cwd: w.repo.path, env: w.env }
  const root = realpathSync(w.repo.path)

  // Gemini CLI 0.28 and older named the project folder by the sha256 of its root.
  const folder = createHash('sha256').update(root).digest('hex')
  const document = join(
    w.home.path,
    '.gemini',
    'tmp',
    folder,
    'chats',
    'session-2026-12-04T20-14-05db2dec.json',
  )
  mkdirSync(dirname(document), { recursive: true })
  writeFileSync(document, readFileSync(join(fixtures, 'gemini', 'session-0.38.2-shell.first-save.json')))

  const storage = JSON.parse(
    readFileSync(join(fixtures, 'opencode', 'storage-1.1.65.json'), 'utf8'),
  ) as Record<string, string>
  for (const [path, text] of Object.entries(storage)) {
    const file = join(w.home.path, '.local', 'share', 'opencode', 'storage', path)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, text.replaceAll(recordedRoot, root))
  }

  await runCliJson(['index'], cli)
  const first = await runCliJson<{ hits: SearchHit[] }>(
    ['search', 'echo', 'kingfisher', '--kind', 'human'],
    cli,
  )
  assert.deepEqual(first.hits.map((hit) => [hit.vendor, hit.sessionId, hit.cliVersion]).sort(), [
    ['gemini', '05db2dec-810d-48c5-b8ea-b8b45abf07d5', null],
    ['opencode', 'ses_dbd5310ffffeVsq6P2PPX2xcyw', '1.1.65'],
  ])

  // Gemini CLI rewrites the whole document with the resumed turn; the next index adds only it.
  writeFileSync(document, readFileSync(join(fixtures, 'gemini', 'session-0.38.2-shell-resume.json')))
  await runCliJson(['index'], cli)
  const again = await runCliJson<{ hits: SearchHit[] }>(
    ['search', 'echo', 'kingfisher', '--kind', 'human'],
    cli,
  )
  assert.equal(again.hits.length, 2, 'the first prompts, once each')
  const resumed = await runCliJson<{ hits: SearchHit[] }>(['search', 'heron', '--kind', 'human'], cli)
  assert.deepEqual(resumed.hits.map((hit) => hit.vendor).sort(), ['gemini', 'opencode'])

  const doctor = await runCliJson<DoctorJson>(['doctor'], cli)
  for (const vendor of ['gemini', 'opencode']) {
    const file = accountedCaptureFile(doctor, vendor)
    // Two prompts, a shell call and its output, two answers: each once.
    assert.equal(file.events, 6, JSON.stringify(file))
  }
})

test('the daemon journals a Gemini CLI 0.38 document as the CLI rewrites it, and a restart captures nothing again', async () => {
  await using w = await captureWorld()
  const cwd = w.repo.path
  const projectDir = join(w.home.path, '.gemini', 'tmp', 'heron')
  const document = join(projectDir, 'chats', 'session-2026-12-04T20-14-05db2dec.json')
  const geminiEvents = (): number => w.events().filter((event) => event.vendor === 'gemini').length
  {
    await using up = startUp([], { cwd, env: w.env })
    await up.waitFor('ready')
    mkdirSync(dirname(document), { recursive: true })
    writeFileSync(join(projectDir, '.project_root'), cwd)
    writeFileSync(document, readFileSync(join(fixtures, 'gemini', 'session-0.38.2-shell.first-save.json')))
    await eventually(() => geminiEvents() === 4, 30_000, 'the first save')
    writeFileSync(document, readFileSync(join(fixtures, 'gemini', 'session-0.38.2-shell-resume.json')))
    await eventually(() => geminiEvents() === 6, 30_000, 'the rewritten document')
    assert.equal(await up.stop(), 0)
  }
  // The CLI saves the same document once more (its time changes) while no daemon runs.
  writeFileSync(document, `${readFileSync(document, 'utf8')}\n`)
  await using again = startUp([], { cwd, env: w.env })
  const ready = await again.waitFor('ready')
  assert.equal(ready.inserted, 0)
  assert.equal(geminiEvents(), 6)
})

test('a legacy Gemini CLI session a newer CLI resumed (its messages copied into a .jsonl beside) is in memory once', async () => {
  await using w = await captureWorld()
  const cli = { cwd: w.repo.path, env: w.env }
  const projectDir = join(w.home.path, '.gemini', 'tmp', 'heron')
  const name = 'session-2026-12-04T20-14-05db2dec'
  mkdirSync(join(projectDir, 'chats'), { recursive: true })
  writeFileSync(join(projectDir, '.project_root'), w.repo.path)
  const legacy = readFileSync(join(fixtures, 'gemini', 'session-0.38.2-shell-resume.json'), 'utf8')
  writeFileSync(join(projectDir, 'chats', `${name}.json`), legacy)
  await runCliJson(['index'], cli)
  // What 0.61.0's ChatRecordingService writes when it resumes a `.json` session: the document's
  // metadata line, then each of its messages, into `<name>.jsonl` beside it.
  const { messages, ...metadata } = JSON.parse(legacy) as { messages: unknown[] }
  const converted = [metadata, ...messages].map((record) => `${JSON.stringify(record)}\n`).join('')
  writeFileSync(join(projectDir, 'chats', `${name}.jsonl`), converted)
  await runCliJson(['index'], cli)
  const gemini = w.events().filter((event) => event.vendor === 'gemini')
  assert.deepEqual(
    gemini.map((event) => event.kind),
    ['human', 'tool_call', 'tool_output', 'assistant', 'human', 'assistant'],
  )
})
