import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'

const root = join(import.meta.dirname, '..')

/** `npm run x` / `npm test` steps, in order, from a shell script or an npm script line. */
function npmSteps(text: string): string[] {
  return [...text.matchAll(/npm (?:run ([\w:]+)|(test)\b)/g)].map((match) => match[1] ?? match[2] ?? '')
}

test('CI runs the checks `npm run check` runs, before the README test command', () => {
  const scripts = (
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts
  const check = npmSteps(scripts.check ?? '')
  assert.deepEqual(check, ['format:check', 'lint', 'typecheck', 'test'])
  const ci = npmSteps(
    readFileSync(join(root, '.ci', 'run'), 'utf8')
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('#'))
      .join('\n'),
  )
  assert.deepEqual(ci.slice(0, check.length), check, '.ci/run starts with what `npm run check` runs')
  assert.equal(scripts['format:check'], 'biome format .')
  assert.equal(scripts.lint, 'biome lint .')
  assert.match(readFileSync(join(root, 'README.md'), 'utf8'), /^npm test\s/m, 'the README names `npm test`')
})
