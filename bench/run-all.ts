/**
 * Runs every benchmark in bench/ (each `*.ts` beside this file, except this one) in turn, each in
 * its own process, and prints their figures. Benchmarks spawn the compiled CLI, so build first.
 *
 *   npm run build && npm run bench
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

const dir = import.meta.dirname
const cli = join(dir, '..', 'dist', 'cli', 'main.js')
if (!existsSync(cli)) {
  process.stderr.write(`${cli} is missing: run npm run build first\n`)
  process.exit(1)
}
const benches = readdirSync(dir)
  .filter((name) => name.endsWith('.ts') && name !== 'run-all.ts')
  .sort()
const failed: string[] = []
for (const name of benches) {
  process.stdout.write(`\n== bench/${name}\n`)
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(dir, name)], { stdio: 'inherit' })
  if (result.status !== 0) failed.push(name)
}
if (failed.length > 0) {
  process.stderr.write(`\nfailed: ${failed.join(', ')}\n`)
  process.exitCode = 1
}
