import assert from 'node:assert/strict'
import { test } from 'node:test'
import { assembleBrief, type BriefSection, briefBudget, maxBriefLineChars } from './brief-assembly.ts'

const section = (key: string, count: number, total = count, width = 60): BriefSection => ({
  key,
  title: `Section ${key}`,
  lines: Array.from({ length: count }, (_, i) => `${key} line ${i} `.padEnd(width, 'x')),
  total,
  empty: 'none',
})

test('everything fits: every line is shown and nothing is said to be missing', () => {
  const brief = assembleBrief('Brief', [section('a', 2), section('b', 1)])
  assert.equal(brief.text.split('\n').filter((line) => line.startsWith('- ')).length, 3)
  assert.ok(!brief.text.includes('more'))
  assert.deepEqual(
    brief.sections.map((s) => s.lines.length),
    [2, 1],
  )
})

test('an empty section still shows, saying so', () => {
  const brief = assembleBrief('Brief', [section('a', 0), section('b', 1)])
  assert.match(brief.text, /Section a:\n- none\n/)
})

test('however much data, the text stays within the budget and every section keeps its title and a line', () => {
  const sections = [
    section('sessions', 300),
    section('branch', 120, 5000),
    section('main', 80),
    section('notes', 500),
  ]
  const brief = assembleBrief(`Brief ${'h'.repeat(500)}`, sections)
  assert.ok(brief.text.length <= briefBudget, `${brief.text.length} > ${briefBudget}`)
  for (const s of sections) {
    assert.ok(brief.text.includes(`${s.title}:`), s.key)
    assert.ok(brief.text.includes(`${s.key} line 0`), `${s.key} shows its first line`)
  }
  assert.match(brief.text, /- … and 4\d\d\d more/)
})

test('lines are dealt round-robin, so a busy section cannot crowd out the others', () => {
  const brief = assembleBrief('Brief', [section('busy', 100), section('quiet', 3)])
  const [busy, quiet] = brief.sections
  assert.equal(quiet?.lines.length, 3)
  assert.ok((busy?.lines.length ?? 0) > 3)
})

test('long lines are cut to one line of bounded width', () => {
  const brief = assembleBrief('Brief', [
    { key: 'a', title: 'A', lines: [`first\nsecond ${'y'.repeat(400)}`], total: 1, empty: 'none' },
  ])
  const line = brief.sections[0]?.lines[0] ?? ''
  assert.equal(line.length, maxBriefLineChars)
  assert.ok(line.startsWith('first second') && line.endsWith('…'))
})
