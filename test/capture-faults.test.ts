import assert from 'node:assert/strict'
import { truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import {
  captureWorld,
  claudeAssistant,
  claudeHuman,
  claudeUnknown,
  codexHuman,
  codexMeta,
  transcriptTime,
} from './helpers/capture-transcripts.ts'
import type { DoctorFile } from './helpers/doctor-json.ts'
import { runCliJson } from './helpers/run-cli.ts'
import { git } from './helpers/tmp-git-repo.ts'

interface IndexJson {
  files: number
  captured: number
  outOfScope: number
  inserted: number
  resets: number
  totalEvents: number
}

interface DoctorJson {
  sections: { name: string; totals: { lines: number; unknown: number }; files: DoctorFile[] }[]
}

const texts = (events: { text: string }[]): string[] => events.map((event) => event.text)

test('a truncated transcript is read again from its start, and no event is kept twice', async () => {
  await using w = await captureWorld()
  const cwd = w.repo.path
  const first = claudeHuman({ cwd, session: 's1', text: 'first words' })
  const path = w.claude('s1.jsonl', first + claudeHuman({ cwd, session: 's1', text: 'second words' }))
  await runCliJson(['index'], { cwd, env: w.env })
  truncateSync(path, first.length)
  w.append(path, claudeHuman({ cwd, session: 's1', text: 'rewritten second' }))

  const out = await runCliJson<IndexJson>(['index'], { cwd, env: w.env })

  assert.equal(out.resets, 1)
  assert.deepEqual(texts(w.events()), ['first words', 'rewritten second'])
})

test('a transcript rewritten in place, same size or shorter, is read again', async () => {
  await using w = await captureWorld()
  const cwd = w.repo.path
  const line = (text: string): string => claudeHuman({ cwd, session: 's2', text, at: transcriptTime(0) })
  const path = w.claude('s2.jsonl', line('alpha one') + line('alpha two'))
  await runCliJson(['index'], { cwd, env: w.env })

  writeFileSync(
    path,
    line('omega one').replace(/"uuid":"[^"]+"/, `"uuid":"${'9'.repeat(36)}"`) + line('alpha two'),
  )
  await runCliJson(['index'], { cwd, env: w.env })
  assert.deepEqual(texts(w.events()), ['omega one', 'alpha two'])

  writeFileSync(path, line('short'))
  await runCliJson(['index'], { cwd, env: w.env })
  assert.deepEqual(texts(w.events()), ['short'])
})

test('a multi-megabyte line is captured whole', async () => {
  await using w = await captureWorld()
  const cwd = w.repo.path
  const big = `start ${'lorem ipsum '.repeat(400_000)} end`
  w.claude(
    'big.jsonl',
    claudeHuman({ cwd, session: 's3', text: big }) + claudeHuman({ cwd, session: 's3', text: 'after' }),
  )
  await runCliJson(['index'], { cwd, env: w.env })
  const events = w.events()
  assert.equal(events.length, 2)
  assert.equal(events[0]?.text, big)
  assert.equal(events[1]?.text, 'after')
})

test('CRLF line endings are read like LF', async () => {
  await using w = await captureWorld()
  const cwd = w.repo.path
  const crlf = (line: string): string => line.replace(/\n$/, '\r\n')
  w.claude(
    'crlf.jsonl',
    crlf(claudeHuman({ cwd, session: 's4', text: 'one' })) +
      crlf(claudeHuman({ cwd, session: 's4', text: 'two' })),
  )
  await runCliJson(['index'], { cwd, env: w.env })
  assert.deepEqual(texts(w.events()), ['one', 'two'])
  assert.equal(w.sourceFiles()[0]?.unparseable, 0)
})

test('invalid UTF-8 is captured with replacement characters, never fatal', async () => {
  await using w = await captureWorld()
  const cwd = w.repo.path
  const [before, after] = claudeHuman({ cwd, session: 's5', text: 'broken:XX:end' }).split('XX')
  w.claude(
    'utf8.jsonl',
    Buffer.concat([Buffer.from(before ?? ''), Buffer.from([0xe2, 0x82, 0xff]), Buffer.from(after ?? '')]),
  )
  await runCliJson(['index'], { cwd, env: w.env })
  assert.deepEqual(texts(w.events()), ['broken:\uFFFD\uFFFD:end'])
})

test('two JSON objects on one line are both read, and the line counts once', async () => {
  await using w = await captureWorld()
  const cwd = w.repo.path
  const line =
    claudeHuman({ cwd, session: 's6', text: 'glued one' }).trimEnd() +
    claudeHuman({ cwd, session: 's6', text: 'glued two' })
  w.claude('glued.jsonl', line)
  await runCliJson(['index'], { cwd, env: w.env })
  assert.deepEqual(texts(w.events()), ['glued one', 'glued two'])
  assert.deepEqual(
    w.events().map((event) => event.part),
    [0, 1],
  )
  assert.equal(w.sourceFiles()[0]?.lines, 1)
})

test('unknown record types are counted, and doctor reports their shapes', async () => {
  await using w = await captureWorld()
  const cwd = w.repo.path
  w.claude(
    'unknown.jsonl',
    `${claudeHuman({ cwd, session: 's7', text: 'hi' })}${claudeUnknown('s7')}${claudeUnknown('s7')}garbage\n`,
  )
  const doctor = await runCliJson<DoctorJson>(['doctor'], { cwd, env: w.env })
  const file = doctor.sections.find((section) => section.name === 'capture')?.files[0]
  assert.ok(file)
  assert.deepEqual([file.lines, file.captured, file.unknown, file.unparseable, file.events], [4, 1, 2, 1, 1])
  assert.deepEqual(
    file.unknownShapes.map((shape) => [shape.recordType, shape.count]),
    [['hologram-snapshot', 2]],
  )
})

test('transcripts of other projects are ignored: nothing of them is stored', async () => {
  await using w = await captureWorld()
  const cwd = w.repo.path
  w.claude('mine.jsonl', claudeHuman({ cwd, session: 'm1', text: 'ours' }))
  w.claude(
    'theirs.jsonl',
    claudeHuman({ cwd: '/somewhere/else', session: 'o1', text: 'not ours' }),
    '-somewhere-else',
  )
  w.claude(
    'sibling.jsonl',
    claudeHuman({ cwd: `${cwd}-sibling`, session: 'o2', text: 'prefix, not inside' }),
    '-sib',
  )
  w.codex(
    'rollout-2026-11-29T10-00-00-x.jsonl',
    codexMeta({ cwd: '/elsewhere', id: 'c1' }) + codexHuman('codex elsewhere'),
  )

  const out = await runCliJson<IndexJson>(['index'], { cwd, env: w.env })

  assert.equal(out.outOfScope, 3)
  assert.deepEqual(texts(w.events()), ['ours'])
})

test('in a repository with many worktrees, a session in any of them is captured', async () => {
  await using w = await captureWorld()
  const worktrees = Array.from({ length: 6 }, (_, i) => join(w.repo.path, '..', `wt-${i}`))
  for (const [i, path] of worktrees.entries())
    git(w.repo.path, 'worktree', 'add', '-q', path, '-b', `lane-${i}`)
  for (const [i, path] of worktrees.entries()) {
    w.claude(
      `wt-${i}.jsonl`,
      claudeHuman({ cwd: join(path, 'src'), session: `w${i}`, text: `from worktree ${i}` }),
      `-wt-${i}`,
    )
  }
  w.codex(
    'rollout-2026-11-29T11-00-00-y.jsonl',
    codexMeta({ cwd: worktrees[3] ?? '', id: 'cw' }) + codexHuman('codex in wt-3'),
  )

  await runCliJson(['index'], { cwd: worktrees[5] ?? '', env: w.env })

  assert.deepEqual(
    texts(w.events()).sort(),
    ['codex in wt-3', ...worktrees.map((_, i) => `from worktree ${i}`)].sort(),
  )
})

test('a split assistant message becomes one event', async () => {
  await using w = await captureWorld()
  const cwd = w.repo.path
  w.claude(
    'split.jsonl',
    claudeAssistant({ cwd, session: 's8', messageId: 'msg_1', text: 'block one' }) +
      claudeAssistant({ cwd, session: 's8', messageId: 'msg_1', text: 'block two' }),
  )
  await runCliJson(['index'], { cwd, env: w.env })
  assert.equal(w.events().length, 1)
  assert.match(w.events()[0]?.text ?? '', /block one[\s\S]*block two/)
})
