import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import picomatch from 'picomatch'
import { findOverlap, patternsOverlap } from './overlap.ts'
import { normalisePattern, patternKey } from './pattern.ts'

// The reference: what the edit check does (picomatch, dot files included, on case-folded text).
const compiled = new Map<string, (path: string) => boolean>()
function matches(pattern: string, path: string): boolean {
  const key = patternKey(pattern)
  let matcher = compiled.get(key)
  if (matcher === undefined) {
    if (compiled.size > 5000) compiled.clear()
    matcher = picomatch(key, { dot: true, windows: false })
    compiled.set(key, matcher)
  }
  return matcher(path.toLowerCase())
}

const normalised = (raw: string): string | null => {
  try {
    return normalisePattern(raw)
  } catch {
    return null
  }
}

/** Pieces of patterns, from the plain to the syntax the analysis only approximates. */
const atoms = [
  ...['a', 'b', 'B', '.', '-', ',', '$', '^', '+', '@', '*', '?', '**', '***', '*a', 'a*'],
  ...['[a-b]', '[^a]', '[!a]', '[A-B]', '[a-]', '[b]', '[*]', '[]]', '[[:alpha:]]'],
  ...['{a,b}', '{a,b/c}', '{,a}', '{a,{b,c}}', '{a}', '{1..3}', '{', '}'],
  ...['@(a|b)', '!(a)', '+(a)', '*(a|b/c)', '(a|b)', 'a|', '|b', '(', ')', '[', 'a+', '[ab]+'],
]
const segment = fc.oneof(
  { weight: 1, arbitrary: fc.constant('**') },
  {
    weight: 5,
    arbitrary: fc.array(fc.constantFrom(...atoms), { minLength: 1, maxLength: 3 }).map((a) => a.join('')),
  },
)
const pattern = fc
  .array(segment, { minLength: 1, maxLength: 4 })
  .map((segments) => normalised(segments.join('/')))
  .filter((p): p is string => p !== null)
/** Only the syntax the analysis models exactly, so that most answers come with a witness. */
const modelledAtoms = [
  'a',
  'b',
  'B',
  '.',
  '-',
  '*',
  '?',
  '*a',
  'a*',
  '[a-b]',
  '[^a]',
  '[b]',
  '[*]',
  '{a,b}',
  '{a,b/c}',
]
const modelledPattern = fc
  .array(
    fc.oneof(
      { weight: 1, arbitrary: fc.constant('**') },
      {
        weight: 5,
        arbitrary: fc
          .array(fc.constantFrom(...modelledAtoms), { minLength: 1, maxLength: 3 })
          .map((a) => a.join('')),
      },
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((segments) => normalised(segments.join('/')))
  .filter((p): p is string => p !== null)
const pathSegment = fc
  .array(fc.constantFrom('a', 'b', 'A', 'c', '.', '-', '*', '$', '+', '@', ',', ']', '|', '1'), {
    minLength: 1,
    maxLength: 3,
  })
  .map((chars) => chars.join(''))
  .filter((s) => s !== '.' && s !== '..')
const path = fc.array(pathSegment, { minLength: 1, maxLength: 5 }).map((segments) => segments.join('/'))

/** A glob that generalises `path` piece by piece, so that it usually matches it. */
function generalise(pathText: string): fc.Arbitrary<string> {
  const pieces = pathText.split('/').map((seg) =>
    fc.oneof(
      fc.constant(seg),
      fc.constant(seg.toUpperCase()),
      fc.constant('*'),
      fc.constant('**'),
      fc.constant(`{${seg},zz}`),
      fc.constant(`@(${seg}|zz)`),
      fc.constant('!(zz)'),
      fc
        .array(fc.integer({ min: 0, max: 5 }), { minLength: seg.length, maxLength: seg.length })
        .map((picks) =>
          [...seg]
            .map((char, i) => {
              const how = picks[i] ?? 0
              const safe = /[a-z0-9]/.test(char)
              if (how === 1) return '?'
              if (how === 2) return '*'
              if (how === 3 && safe) return `[${char}z]`
              if (how === 4 && safe) return `[^${char === 'q' ? 'r' : 'q'}]`
              if (how === 5 && safe) return `{${char},q}`
              return /[*?[\]{}()!@+|]/.test(char) ? `[${char}]` : char
            })
            .join(''),
        ),
    ),
  )
  return fc.tuple(...pieces).map((parts) => parts.join('/'))
}

test('overlap is sound: whenever picomatch says a path matches both patterns, they overlap', () => {
  let both = 0
  fc.assert(
    fc.property(pattern, pattern, fc.array(path, { minLength: 30, maxLength: 30 }), (a, b, paths) => {
      const overlaps = patternsOverlap(a, b)
      for (const p of paths) {
        if (!matches(a, p) || !matches(b, p)) continue
        both++
        assert.ok(overlaps, `${a} and ${b} both match ${p}, yet no overlap was found`)
      }
    }),
    { numRuns: 4000 },
  )
  assert.ok(
    both > 200,
    `only ${both} paths matched both patterns: the generators are too weak to mean anything`,
  )
})

test('overlap is sound on pairs of globs built around one path', () => {
  let both = 0
  const pair = path.chain((p) => fc.tuple(fc.constant(p), generalise(p), generalise(p)))
  fc.assert(
    fc.property(pair, ([p, rawA, rawB]) => {
      const a = normalised(rawA)
      const b = normalised(rawB)
      if (a === null || b === null || !matches(a, p) || !matches(b, p)) return
      both++
      assert.ok(patternsOverlap(a, b), `${a} and ${b} both match ${p}, yet no overlap was found`)
    }),
    { numRuns: 4000 },
  )
  assert.ok(both > 1000, `only ${both} generated pairs matched their path`)
})

test('where the analysis is exact, the path it offers matches both patterns', () => {
  let witnessed = 0
  fc.assert(
    fc.property(fc.oneof(pattern, modelledPattern), fc.oneof(pattern, modelledPattern), (a, b) => {
      const { overlaps, witness } = findOverlap(a, b)
      if (witness === null) return
      witnessed++
      assert.ok(overlaps)
      assert.ok(matches(a, witness) && matches(b, witness), `${witness} is offered for ${a} and ${b}`)
    }),
    { numRuns: 10000 },
  )
  assert.ok(witnessed > 500, `only ${witnessed} witnesses were checked`)
})

test('patterns that share no path do not overlap', () => {
  const disjoint: [string, string][] = [
    ['src/a/**', 'src/b/**'],
    ['src/a.ts', 'src/b.ts'],
    ['src/*.ts', 'src/*.js'],
    ['src/*.ts', 'test/**'],
    ['src/*', 'src/a/b.ts'],
    ['*.md', 'docs/*.md'],
    ['src/{a,b}.ts', 'src/c.ts'],
    ['src/[a-c].ts', 'src/[d-f].ts'],
    ['src/[^a].ts', 'src/a.ts'],
    ['src/?.ts', 'src/ab.ts'],
    ['**/*.test.ts', 'src/a.ts'],
    ['src/a/**', 'src/ab'],
    ['lib/**', 'src/**/lib/x'],
    ['a/**/z', 'a/**/y'],
  ]
  for (const [a, b] of disjoint) {
    assert.equal(patternsOverlap(a, b), false, `${a} and ${b}`)
    assert.equal(patternsOverlap(b, a), false, `${b} and ${a}`)
  }
})

test('a directory glob overlaps every file below it, and case does not matter', () => {
  const overlapping: [string, string][] = [
    ['src/**', 'src/auth/login.ts'],
    ['src/**', 'src'],
    ['**', 'README.md'],
    ['src/**/*.ts', 'src/a/b/c.ts'],
    ['src/*.ts', 'src/{a,b}.ts'],
    ['SRC/Auth/**', 'src/auth/login.ts'],
    ['src/[A-C].ts', 'src/b.ts'],
    ['src/**/x', '**/src/x'],
    ['src/a[[]1[]].ts', 'src/a[[]1[]].ts'],
  ]
  for (const [a, b] of overlapping) {
    assert.equal(patternsOverlap(a, b), true, `${a} and ${b}`)
    assert.equal(patternsOverlap(b, a), true, `${b} and ${a}`)
  }
})

test('syntax the analysis cannot model overlaps conservatively', () => {
  assert.equal(patternsOverlap('src/@(a|b).ts', 'src/c.ts'), true)
  assert.equal(patternsOverlap('*(a|b/c)', 'x/y/z'), true)
  assert.equal(patternsOverlap('src/@(a|b).ts', 'test/a.ts'), false, 'other segments still decide')
})
