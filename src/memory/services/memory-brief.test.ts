import assert from 'node:assert/strict'
import { test } from 'node:test'
import { memoryFixture } from '../../../test/helpers/memory-fixture.ts'
import { git, tmpGitRepo } from '../../../test/helpers/tmp-git-repo.ts'
import { briefSections } from '../../project/services/brief-sections.ts'
import { ManualClock } from '../../shared/clock.ts'
import { briefBudget } from '../core/brief-assembly.ts'
import { writeBriefCursor } from '../store/brief-cursor-table.ts'
import { captureStatus } from './capture-status.ts'
import { MemoryBrief } from './memory-brief.ts'
import { MemoryNote } from './note.ts'

const start = Date.parse('2026-11-02T10:00:00Z')
const human = { human: 'asha@example.com', vendor: null, sessionId: null }
const hour = 60 * 60 * 1000
// No daemon runs in these tests; the capture warning that adds is tested in daemon-brief.test.ts.
const sections = briefSections.filter((source) => source !== captureStatus)

test('a first brief shows recent commits, active sessions and notes; the next one only what is new', async () => {
  await using memory = memoryFixture()
  await using repo = tmpGitRepo()
  for (let i = 1; i <= 7; i++) repo.commit(`commit ${i}`)
  const clock = new ManualClock(start)
  memory.store.add(
    {
      text: 'x',
      sessionId: 'claude-session-aaaa',
      vendor: 'claude',
      cliVersion: '2.1.332',
      branch: 'main',
      at: start - 5 * 60_000,
    },
    {
      text: 'x',
      sessionId: 'rollout-bbbb',
      vendor: 'codex',
      cliVersion: '0.171.0',
      branch: 'feat/x',
      at: start - 3 * hour,
    },
    { text: 'x', sessionId: 'old-session', vendor: 'claude', at: start - 3 * 24 * hour },
  )
  new MemoryNote(memory.db, clock).write({
    text: 'use one lock',
    actor: human,
    cwd: null,
    branch: 'main',
    version: '0.1.0',
  })
  const briefs = new MemoryBrief(memory.db, clock, sections)
  const first = briefs.brief({ reader: human, cwd: repo.path })
  assert.equal(first.reader, 'human:asha@example.com')
  assert.equal(first.previous, null)
  assert.match(first.text, /first brief/)
  const [sessions, branch, notes] = first.sections
  assert.deepEqual(
    sessions?.lines.map((line) => line.split(' · ')[0]),
    ['claude 2.1.332', 'codex 0.171.0'],
  )
  assert.match(sessions?.lines[0] ?? '', /asha|dev@example\.com/)
  assert.match(sessions?.lines[0] ?? '', /5 min ago/)
  assert.equal(branch?.key, 'branch')
  assert.deepEqual(
    branch?.lines.map((line) => line.split(' ').slice(1, 3).join(' ')),
    ['commit 7', 'commit 6', 'commit 5', 'commit 4', 'commit 3'],
  )
  assert.equal(notes?.lines.length, 1)
  assert.match(notes?.lines[0] ?? '', /use one lock/)

  clock.advance(hour)
  repo.commit('commit 8')
  const second = briefs.brief({ reader: human, cwd: repo.path })
  assert.equal(second.previous, new Date(start).toISOString())
  assert.match(second.text, /last brief 1 h ago/)
  assert.deepEqual(
    second.sections[1]?.lines.map((line) => line.split(' ').slice(1, 3).join(' ')),
    ['commit 8'],
  )
  assert.match(second.text, /Notes since your last brief:\n- none/)

  const other = briefs.brief({
    reader: { human: 'ben@example.com', vendor: null, sessionId: null },
    cwd: repo.path,
  })
  assert.match(other.text, /first brief/)
})

test('on a feature branch the brief tells what is new on the branch and on main', async () => {
  await using memory = memoryFixture()
  await using repo = tmpGitRepo()
  const clock = new ManualClock(start)
  git(repo.path, 'checkout', '-q', '-b', 'feat/leases')
  const briefs = new MemoryBrief(memory.db, clock, sections)
  briefs.brief({ reader: human, cwd: repo.path })
  repo.commit('on the branch')
  git(repo.path, 'checkout', '-q', 'main')
  repo.commit('on main, first')
  repo.commit('on main, second')
  git(repo.path, 'checkout', '-q', 'feat/leases')
  clock.advance(hour)
  const brief = briefs.brief({ reader: human, cwd: repo.path })
  const keys = brief.sections.map((section) => section.key)
  assert.deepEqual(keys, ['sessions', 'branch', 'main', 'notes'])
  assert.match(brief.text, /New on feat\/leases since your last brief \(1 h ago\):\n- \w+ on the branch/)
  assert.match(brief.text, /New on main since your last brief \(1 h ago\):\n- \w+ on main, second/)
})

test("an agent session's brief has its own cursor and marks the session as the reader's own", async () => {
  await using memory = memoryFixture()
  await using repo = tmpGitRepo()
  const clock = new ManualClock(start)
  memory.store.add({ text: 'x', sessionId: '1af7fc5e-8455-4414', at: start - 60_000 })
  const agent = { human: 'asha@example.com', vendor: 'claude' as const, sessionId: '1af7fc5e-8455-4414' }
  const brief = new MemoryBrief(memory.db, clock, sections).brief({ reader: agent, cwd: repo.path })
  assert.equal(brief.reader, 'claude:1af7fc5e-8455-4414')
  assert.match(brief.sections[0]?.lines[0] ?? '', /session 1af7fc5e \(you\)/)
})

test('a cursor commit that no longer exists falls back to the time of the last brief', async () => {
  await using memory = memoryFixture()
  await using repo = tmpGitRepo()
  repo.commit('landed before')
  const clock = new ManualClock(Date.parse('2026-11-01T09:00:00Z'))
  writeBriefCursor(memory.db, {
    reader: 'human:asha@example.com',
    at: clock.now(),
    headCommit: 'f'.repeat(40),
    mainCommit: 'f'.repeat(40),
  })
  const brief = new MemoryBrief(memory.db, clock, sections).brief({ reader: human, cwd: repo.path })
  assert.deepEqual(
    brief.sections[1]?.lines.map((line) =>
      line
        .split(' ')
        .slice(1)
        .join(' ')
        .replace(/ \(.*$/, ''),
    ),
    ['landed before', 'initial'],
  )
})

test('whatever the amount of data, the brief stays within 2,000 characters and every section shows', async () => {
  await using memory = memoryFixture()
  await using repo = tmpGitRepo()
  const clock = new ManualClock(start)
  new MemoryBrief(memory.db, clock, sections).brief({ reader: human, cwd: repo.path })
  for (let i = 0; i < 150; i++)
    repo.commit(`a fairly long commit subject number ${i} that says what changed and why it did`)
  memory.store.add(
    ...Array.from({ length: 300 }, (_, i) => ({
      text: 'x',
      sessionId: `session-${String(i).padStart(4, '0')}-with-a-long-identifier`,
      branch: `feature/a-long-branch-name-${i}`,
      at: start + i * 1000,
    })),
  )
  const notes = new MemoryNote(memory.db, clock)
  for (let i = 0; i < 200; i++) {
    clock.advance(1000)
    notes.write({
      text: `decision ${i}: ${'because '.repeat(40)}`,
      actor: human,
      cwd: null,
      branch: 'main',
      version: '0.1.0',
    })
  }
  const brief = new MemoryBrief(memory.db, clock, sections).brief({ reader: human, cwd: repo.path })
  assert.ok(brief.text.length <= briefBudget, `${brief.text.length} characters`)
  for (const title of [
    'Sessions active since your last brief',
    'New on main since your last brief',
    'Notes since your last brief:',
  ]) {
    assert.ok(brief.text.includes(title), title)
  }
  for (const section of brief.sections) assert.ok(section.lines.length >= 1, section.key)
  assert.match(brief.text, /… and \d+ more/)
})

test('the next brief lists only sessions with new events, with their count and last prompt; quiet ones are counted', async () => {
  await using memory = memoryFixture()
  await using repo = tmpGitRepo()
  const clock = new ManualClock(start)
  memory.store.add(
    { kind: 'human', text: 'fix the lease expiry', sessionId: 'busy-session-1111', at: start - 2 * hour },
    { kind: 'assistant', text: 'on it', sessionId: 'busy-session-1111', at: start - 2 * hour + 1000 },
    { kind: 'human', text: 'write the docs', sessionId: 'quiet-session-2222', at: start - 3 * hour },
  )
  const briefs = new MemoryBrief(memory.db, clock, sections)
  const first = briefs.brief({ reader: human, cwd: repo.path })
  assert.equal(first.sections[0]?.title, 'Active in the last 24 h')
  assert.deepEqual(first.sections[0]?.lines, [
    'claude 2.1.0 · dev@example.com · main · 2 events, last 2 h ago · session busy-ses · last asked: "fix the lease expiry"',
    'claude 2.1.0 · dev@example.com · main · 1 event, last 3 h ago · session quiet-se · last asked: "write the docs"',
  ])

  clock.advance(hour)
  const nothingNew = briefs.brief({ reader: human, cwd: repo.path })
  assert.equal(nothingNew.sections[0]?.title, 'Sessions active since your last brief (1 h ago)')
  assert.deepEqual(nothingNew.sections[0]?.lines, [])
  assert.match(
    nothingNew.text,
    /since your last brief \(1 h ago\):\n- none \(2 active in the last 24 h, nothing new from them\)/,
  )

  clock.advance(30 * 60_000)
  memory.store.add(
    { kind: 'tool_call', text: 'npm test', sessionId: 'busy-session-1111', at: clock.now() - 10 * 60_000 },
    { kind: 'tool_output', text: 'ok', sessionId: 'busy-session-1111', at: clock.now() - 9 * 60_000 },
  )
  const next = briefs.brief({ reader: human, cwd: repo.path })
  assert.deepEqual(next.sections[0]?.lines, [
    'claude 2.1.0 · dev@example.com · main · 2 events, last 9 min ago · session busy-ses · last asked: "fix the lease expiry"',
  ])
  assert.equal(next.sections[0]?.total, 1)
  assert.doesNotMatch(next.text, /quiet-se/)
})

test("teammates' sessions received from the server are not listed as this machine's", async () => {
  await using memory = memoryFixture()
  await using repo = tmpGitRepo()
  const [remote] = memory.store.add(
    { text: 'theirs', sessionId: 'team-session-3333', at: start - hour },
    { text: 'mine', sessionId: 'local-session-4444', at: start - hour },
  )
  memory.db.prepare('UPDATE event SET origin_gseq = 1, received_at = ? WHERE id = ?').run(start, remote)
  const brief = new MemoryBrief(memory.db, new ManualClock(start), sections).brief({
    reader: human,
    cwd: repo.path,
  })
  assert.deepEqual(
    brief.sections[0]?.lines.map((line) => /session (\S+)/.exec(line)?.[1]),
    ['local-se'],
  )
})
