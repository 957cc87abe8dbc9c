import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import fc from 'fast-check'
import picomatch from 'picomatch'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { literalPattern, normalisePattern, patternKey } from '../core/pattern.ts'
import type { Lease } from '../protocol/lease.ts'
import { compileLeasePattern, literalMatcher, storedMatcher } from './lease-regex.ts'
import { readLeases, upsertLease } from './lease-table.ts'

/** The definition: what leases/services/matcher.ts did with picomatch before patterns were stored. */
const byPicomatch = (pattern: string, path: string): boolean =>
  picomatch(patternKey(pattern), { dot: true, windows: false })(path.toLowerCase())

/** What the edit hook does: the stored expression, or string equality for a pattern naming one path. */
function byStoredForm(pattern: string, path: string): boolean {
  const key = patternKey(pattern)
  const source = compileLeasePattern(key)
  const matcher = source === null ? literalMatcher(key) : storedMatcher(key, source)
  assert.ok(matcher !== null, `${key}: no stored form and not a literal`)
  return matcher(path.toLowerCase())
}

/** Pieces of patterns, plain and odd, upper case included: leases compare case-insensitively. */
const atoms = [
  ...['a', 'B', '.', '-', ',', '$', '^', '+', '@', 'é', 'İ', '*', '?', '**', '***', '*a', 'A*'],
  ...['[a-b]', '[^a]', '[!a]', '[A-B]', '[a-]', '[b]', '[*]', '[]]', '[[]', '[!]', '[[:alpha:]]'],
  ...['{a,b}', '{a,b/c}', '{,a}', '{a,{b,c}}', '{a}', '{1..3}', '{', '}'],
  ...['@(a|b)', '!(a)', '+(a)', '*(a|b/c)', '(a|b)', 'a|', '|b', '(', ')', '[', 'a+', '[ab]+'],
]
const pathChars = [
  'a',
  'A',
  'b',
  'B',
  '1',
  '.',
  '-',
  '*',
  '?',
  '[',
  ']',
  '!',
  '(',
  ')',
  '{',
  '}',
  ',',
  '|',
  '@',
  '+',
  'é',
  'İ',
]
const pathSegment = fc
  .array(fc.constantFrom(...pathChars), { minLength: 1, maxLength: 4 })
  .map((chars) => chars.join(''))
  .filter((segment) => segment !== '.' && segment !== '..')
const path = fc.array(pathSegment, { minLength: 1, maxLength: 4 }).map((segments) => segments.join('/'))
const glob = fc
  .array(
    fc.oneof(
      { weight: 1, arbitrary: fc.constant('**') },
      {
        weight: 5,
        arbitrary: fc.array(fc.constantFrom(...atoms), { minLength: 1, maxLength: 3 }).map((a) => a.join('')),
      },
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((segments) => segments.join('/'))
/** Patterns as leases hold them: normalised globs, and the literal pattern of a file (auto-leases). */
const pattern = fc
  .oneof(glob, path.map(literalPattern))
  .map((raw) => {
    try {
      return normalisePattern(raw)
    } catch {
      return null
    }
  })
  .filter((p): p is string => p !== null)

test('a stored pattern matches exactly the paths picomatch matches, case folded', () => {
  fc.assert(
    fc.property(pattern, path, (leased, edited) => {
      assert.equal(byStoredForm(leased, edited), byPicomatch(leased, edited), `${leased} on ${edited}`)
    }),
    { numRuns: 4000 },
  )
})

test('paths a pattern should match, and its own text, agree with picomatch too', () => {
  // Random paths rarely hit a glob; these are built to: the file an auto-lease names, in any case,
  // and the pattern's text taken as a path (picomatch matches a path spelled like its glob).
  fc.assert(
    fc.property(path, fc.boolean(), (file, upper) => {
      const leased = literalPattern(file)
      for (const edited of [file, upper ? file.toUpperCase() : file.toLowerCase(), leased, `${file}x`]) {
        assert.equal(byStoredForm(leased, edited), byPicomatch(leased, edited), `${leased} on ${edited}`)
      }
      assert.ok(byStoredForm(leased, file))
    }),
    { numRuns: 2000 },
  )
  fc.assert(
    fc.property(pattern, (leased) => {
      assert.equal(byStoredForm(leased, leased), byPicomatch(leased, leased), leased)
    }),
    { numRuns: 2000 },
  )
})

test('a file an auto-lease names needs no expression; a glob gets the one picomatch builds', () => {
  assert.equal(compileLeasePattern('src/a[[]1[]].ts'), null)
  assert.equal(compileLeasePattern('src/plain.ts'), null)
  const source = compileLeasePattern('src/**')
  assert.equal(source, picomatch.makeRe('src/**', { dot: true, windows: false }).source)
})

test('a lease row carries its compiled pattern, and one without it still matches', async () => {
  await using dir = tmpDir()
  const db = openDatabaseFile(join(dir.path, 'sangam.db'))
  try {
    const lease: Lease = {
      pattern: 'Docs/**/*.MD',
      holder: { human: 'bob@example.com', vendor: null, sessionId: null },
      kind: 'claim',
      reason: 'docs',
      token: 1,
      takenAt: 0,
      renewedAt: 0,
      expiresAt: 10_000,
    }
    upsertLease(db, lease)
    const stored = db.prepare('SELECT pattern_regex FROM lease').pluck().get()
    assert.equal(stored, compileLeasePattern('docs/**/*.md'))
    assert.deepEqual(readLeases(db, 0), [lease])
    // A row written before the column existed reads the same.
    db.prepare('UPDATE lease SET pattern_regex = NULL').run()
    assert.deepEqual(readLeases(db, 0), [lease])
  } finally {
    db.close()
  }
})
