import assert from 'node:assert/strict'
import { test } from 'node:test'
import picomatch from 'picomatch'
import { isSangamError } from '../../shared/sangam-error.ts'
import { isLiteralPattern, literalPattern, normalisePattern, patternKey } from './pattern.ts'

test('patterns lose ./, empty and . segments, resolve .., and a trailing / means everything below', () => {
  assert.equal(normalisePattern('./src//auth/./login.ts'), 'src/auth/login.ts')
  assert.equal(normalisePattern('src/lib/../auth/*.ts'), 'src/auth/*.ts')
  assert.equal(normalisePattern('src/auth/'), 'src/auth/**')
  assert.equal(normalisePattern('  docs/*.md  '), 'docs/*.md')
  assert.equal(normalisePattern('.'), '**')
  assert.equal(normalisePattern('!(a).ts'), '!(a).ts', 'an extglob is not a negation')
})

test('patterns that cannot be leases are refused with the reason', () => {
  const refusals: [string, RegExp][] = [
    ['', /empty/],
    ['   ', /empty/],
    ['../outside.ts', /climbs out/],
    ['src/../../x', /climbs out/],
    ['/etc/passwd', /absolute/],
    ['!src/**', /negated/],
    ['src\\a.ts', /backslash/],
    ['src/a\u0000.ts', /control character/],
    ['src/[a', /"src\/\[a" .*"\[" has no partner/],
    ['src/a]', /"\]" has no partner/],
    ['src/{a,b', /"\{" has no partner/],
    ['src/a,b}.ts', /"\}" has no partner/],
    ['src/@(a|b', /"\(" has no partner/],
    ['src/{a,(b}.ts)', /"\(" has no partner/],
    ['[[:alpha:]', /"\[" has no partner/],
  ]
  for (const [raw, why] of refusals) {
    assert.throws(
      () => normalisePattern(raw),
      (error: unknown) => isSangamError(error) && error.code === 'INVALID_INPUT' && why.test(error.message),
      JSON.stringify(raw),
    )
  }
})

test('balanced brackets, classes holding brackets and escaped lone brackets are usable patterns', () => {
  for (const pattern of [
    'src/[ab].ts',
    'src/[]a].ts',
    'src/[!]].ts',
    'src/[[:alpha:]]*.ts',
    'src/{a,b}/**',
    'src/@(x|y).ts',
    'src/app/(auth)/page.tsx',
    'src/{a,@(b|c)}.ts',
    literalPattern('src/a[1.ts'),
    literalPattern('src/x]y(z{.ts'),
  ]) {
    assert.equal(normalisePattern(pattern), pattern)
  }
})

test('the pattern key folds case, so SRC/A.ts and src/a.ts are one lease', () => {
  assert.equal(patternKey('SRC/Auth/**'), patternKey('src/auth/**'))
})

test('a literal pattern matches exactly its path, whatever characters the file name holds', () => {
  const names = [
    'src/a[1].ts',
    'src/{x}.ts',
    'src/*.ts',
    'src/what?.md',
    'src/!important.ts',
    'a(b)+c@d|e.ts',
    'x]y^z$.ts',
  ]
  for (const name of names) {
    const pattern = literalPattern(name)
    assert.ok(!isLiteralPattern(name) || pattern === name)
    const matcher = picomatch(pattern, { dot: true })
    assert.ok(matcher(name), `${pattern} matches ${name}`)
    assert.ok(!matcher(`${name}x`) && !matcher('src/a.ts'), `${pattern} matches nothing else`)
  }
  assert.equal(literalPattern('src/plain-file.ts'), 'src/plain-file.ts')
})
