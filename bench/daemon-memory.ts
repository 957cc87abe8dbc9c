/**
 * Daemon memory: `sangam up` (the compiled CLI, a real process) tailing 1,000 transcript files
 * (900 Claude Code sessions in 50 project folders, 100 Codex rollouts), with appends to some of
 * them while its resident set size is sampled from /proc. Two baselines are measured in the same
 * run: an idle `node` process, and one that has only loaded the CLI's modules (what every sangam
 * process pays before doing anything). Target < 200 MB.
 *
 *   npm run build && node --import tsx bench/daemon-memory.ts [files]
 */
import { spawn } from 'node:child_process'
import { appendFileSync, readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { captureWorld, claudeHuman, codexHuman, codexMeta } from '../test/helpers/capture-transcripts.ts'
import { cliEntry } from '../test/helpers/run-cli.ts'
import { startUp } from '../test/helpers/up-process.ts'

const fileCount = Number(process.argv[2] ?? 1000)

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN)
  return kb / 1024
}

/** RSS of an idle node process once it has run `code` (a baseline measured in the same run). */
async function idleRssMb(code: string): Promise<number> {
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', `${code}; process.stdout.write('ready\\n'); setInterval(() => {}, 1000)`],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  )
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()))
  await sleep(500)
  const rss = rssMb(child.pid ?? 0)
  child.kill('SIGTERM')
  return rss
}

async function main(): Promise<void> {
  await using world = await captureWorld()
  const cwd = world.repo.path
  const files: string[] = []
  for (let i = 0; i < fileCount; i++) {
    const session = `mem-${i}`
    const lines = Array.from({ length: 20 }, (_, n) =>
      claudeHuman({
        cwd,
        session,
        text: `session ${i} line ${n}: ${'some words of a conversation '.repeat(6)}`,
      }),
    )
    files.push(
      i % 10 === 9
        ? world.codex(
            `rollout-2026-11-29T10-00-00-${i}.jsonl`,
            codexMeta({ cwd, id: session }) + codexHuman(lines.join(' ')),
          )
        : world.claude(`${session}.jsonl`, lines.join(''), `-project-${i % 50}`),
    )
  }
  const bare = await idleRssMb('')
  const loaded = await idleRssMb(`await import(${JSON.stringify(cliEntry)})`)
  await using up = startUp([], { cwd, env: world.env })
  const ready = await up.waitFor('ready', 600_000)
  const pid = up.child.pid ?? 0
  const atReady = rssMb(pid)
  let peak = atReady
  for (let round = 0; round < 50; round++) {
    for (let k = 0; k < 4; k++) {
      const path = files[(round * 37 + k * 251) % files.length] ?? ''
      appendFileSync(
        path,
        path.includes('rollout-')
          ? codexHuman(`appended ${round}`)
          : claudeHuman({ cwd, session: 'x', text: `appended ${round}` }),
      )
    }
    await sleep(200)
    peak = Math.max(peak, rssMb(pid))
  }
  const atEnd = rssMb(pid)
  const lines = [
    `daemon memory: sangam up tailing ${fileCount} transcript files (${ready.inserted} events caught up), 200 appends over 10 s`,
    `  RSS when ready ${atReady.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, at the end ${atEnd.toFixed(0)} MB  (target < 200 MB)`,
    `  baselines: an idle node process ${bare.toFixed(0)} MB; one that has loaded the CLI (every command's modules) ${loaded.toFixed(0)} MB`,
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
}

await main()
