/**
 * What looking for collisions costs a read when no daemon runs (D350, D351): `sangam board --json`
 * over a repository of 300 files with N linked worktrees (default 3, then 12, the most a read
 * looks at), each with a committed change and an uncommitted one; pairs of worktrees edit the same
 * line of a shared file, so the look finds conflicts and keeps conflict threads open.
 *
 * Three ways, interleaved run by run so the machine's load falls on all alike:
 * - `no look`: a look under 15 s old stands (what a `threads` right after a `board` costs, and
 *   every read while `sangam up` runs);
 * - `warm look`: the last look is older, the merge memo knows every pair (a read after a pause);
 * - `cold look`: nothing known (the first read after the worktrees changed everywhere).
 * Prints median and p95 wall time of each and the ratios to `no look`.
 *
 *   npm run build && node --import tsx bench/room-collisions-on-read.ts [runs] [worktrees…]
 */
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openConnection } from '../src/store/connection.ts'
import { benchScratch } from './helpers/bench-scratch.ts'
import { numberedLines, writeSourceTree } from './helpers/merge-fixture.ts'
import { percentile } from './helpers/transcript-sentences.ts'

const runs = Number(process.argv[2] ?? 9)
const sizes = process.argv.length > 3 ? process.argv.slice(3).map(Number) : [3, 12]
const root = join(import.meta.dirname, '..')
const cli = join(root, 'dist', 'cli', 'main.js')

async function measure(worktrees: number): Promise<void> {
  const { dir, run } = benchScratch('look', { gitIdentity: true })
  try {
    const repo = join(dir, 'repo')
    run('git', ['init', '-q', '-b', 'main', repo], dir)
    writeSourceTree(repo)
    writeFileSync(join(repo, 'shared.ts'), numberedLines(worktrees * 10, 's'))
    run('git', ['add', '-A'], repo)
    run('git', ['commit', '-q', '-m', 'base'], repo)
    // Linked worktrees: the main worktree makes one more.
    for (let i = 0; i < worktrees - 1; i += 1) {
      const path = join(dir, `lane-${i}`)
      run('git', ['worktree', 'add', '-q', path, '-b', `lane-${i}`], repo)
      writeFileSync(join(path, `own-${i}.ts`), numberedLines(5, 'o'))
      run('git', ['add', '-A'], path)
      run('git', ['commit', '-q', '-m', `lane ${i}`], path)
      // Lanes 0 and 1, 2 and 3, … edit the same line: each pair conflicts.
      const pair = Math.floor(i / 2) * 10
      writeFileSync(
        join(path, 'shared.ts'),
        numberedLines(worktrees * 10, 's').replace(
          `export const s${pair} = ${pair}\n`,
          `export const s${pair} = -${i + 1}\n`,
        ),
      )
    }
    // As in a worktree in use: its index written after its files' last change.
    await new Promise((resolve) => setTimeout(resolve, 1100))
    for (let i = 0; i < worktrees - 1; i += 1)
      run('git', ['update-index', '-q', '--refresh'], join(dir, `lane-${i}`))
    const { database } = JSON.parse(run(process.execPath, [cli, 'init', '--no-mcp', '--json'], repo)) as {
      database: string
    }
    const board = () => {
      const started = performance.now()
      const out = JSON.parse(run(process.execPath, [cli, 'board', '--json'], repo)) as {
        columns: Record<string, { title: string }[]>
        collisions: { source: string; note: string | null }
      }
      return { ms: performance.now() - started, out }
    }
    const set = (sql: string) => {
      const db = openConnection(database, { timeoutMs: 5000 })
      try {
        db.exec(sql)
      } finally {
        db.close()
      }
    }
    const first = board().out // writes the working-state objects once, opens the threads
    if (first.collisions.source !== 'looked')
      throw new Error(`the first board did not look: ${first.collisions.note}`)
    const threads = Object.values(first.columns)
      .flat()
      .filter((card) => card.title.startsWith('Merge conflict')).length
    const ways = {
      'no look': () => set(`UPDATE overlap_look SET looked_at = ${Date.now()}`),
      'warm look': () => set('DELETE FROM overlap_look'),
      'cold look': () => set('DELETE FROM overlap_look; DELETE FROM ready_memo'),
    }
    const times: Record<string, number[]> = { 'no look': [], 'warm look': [], 'cold look': [] }
    for (let i = 0; i < runs; i += 1) {
      for (const [way, before] of Object.entries(ways)) {
        before()
        const { ms, out } = board()
        const expected = way === 'no look' ? 'recent' : 'looked'
        if (out.collisions.source !== expected) throw new Error(`${way}: ${out.collisions.source}`)
        times[way]?.push(ms)
      }
    }
    const p50 = (way: string) =>
      percentile(
        [...(times[way] ?? [])].sort((a, b) => a - b),
        50,
      )
    const p95 = (way: string) =>
      percentile(
        [...(times[way] ?? [])].sort((a, b) => a - b),
        95,
      )
    process.stdout.write(
      `sangam board, ${worktrees} worktrees (${threads} conflict threads), no daemon, ${runs} runs each, interleaved:\n`,
    )
    for (const way of Object.keys(ways)) {
      const ratio = way === 'no look' ? '' : `, ${(p50(way) / p50('no look')).toFixed(2)}× no look`
      process.stdout.write(
        `  ${way.padEnd(9)}: median ${p50(way).toFixed(0)} ms, p95 ${p95(way).toFixed(0)} ms${ratio}\n`,
      )
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

for (const worktrees of sizes) await measure(worktrees)
