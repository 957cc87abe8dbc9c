/**
 * Wall time of the PreToolUse hook, process start to exit, as Claude Code pays it on every edit:
 * p50/p95 for an allowed edit (which renews the session's auto-lease) and a denied one (a file
 * another human claimed), beside `node -e 0` measured in the same run, interleaved, so that the
 * machine's noise lands on all three alike. The target is a p95 within 1.5× of that floor.
 *
 *   npm run build && node --import tsx bench/hooks.ts [runs]
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { percentile } from './helpers/transcript-sentences.ts'

const runs = Number(process.argv[2] ?? 60)
const root = join(import.meta.dirname, '..')
const cli = join(root, 'dist', 'cli', 'main.js')
const hook = join(root, 'dist', 'hooks', 'agent-hook-main.js')
const print = (line: string): void => {
  process.stdout.write(`${line}\n`)
}

const scratch = mkdtempSync(join(tmpdir(), 'sangam-bench-hooks-'))
const repo = join(scratch, 'repo')
const env: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: scratch,
  SANGAM_HOME: join(scratch, '.sangam'),
  CLAUDE_CONFIG_DIR: join(scratch, '.claude'),
  CODEX_HOME: join(scratch, '.codex'),
}

function sh(command: string, args: readonly string[], extra: NodeJS.ProcessEnv = {}): void {
  const result = spawnSync(command, args, { cwd: repo, env: { ...env, ...extra }, encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr}`)
}

function timed(args: readonly string[], stdin: string): Promise<{ ms: number; stdout: string }> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: repo, env, stdio: ['pipe', 'pipe', 'ignore'] })
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8')
    })
    child.on('error', reject)
    child.on('close', () => resolve({ ms: performance.now() - started, stdout }))
    child.stdin.end(stdin)
  })
}

function edit(file: string): string {
  return JSON.stringify({
    session_id: 'bench-session',
    transcript_path: join(repo, 'transcript.jsonl'),
    cwd: repo,
    permission_mode: 'acceptEdits',
    hook_event_name: 'PreToolUse',
    tool_name: 'Edit',
    tool_input: { file_path: join(repo, file), old_string: 'a', new_string: 'b', replace_all: false },
    tool_use_id: 'toolu_bench',
  })
}

function summary(name: string, samples: number[], floor: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b)
  const floorSorted = [...floor].sort((a, b) => a - b)
  const p50 = percentile(sorted, 50)
  const p95 = percentile(sorted, 95)
  const ratio = (value: number, base: number): string => `${(value / base).toFixed(2)}×`
  return `${name.padEnd(22)} p50 ${p50.toFixed(1).padStart(6)} ms (${ratio(p50, percentile(floorSorted, 50))})   p95 ${p95.toFixed(1).padStart(6)} ms (${ratio(p95, percentile(floorSorted, 95))})`
}

try {
  mkdirSync(join(repo, 'src'), { recursive: true })
  writeFileSync(join(repo, 'src', 'a.ts'), 'export const a = 1\n')
  writeFileSync(join(repo, 'src', 'b.ts'), 'export const b = 1\n')
  sh('git', ['init', '-q', '-b', 'main'])
  sh('git', [
    '-c',
    'user.email=dev@example.com',
    '-c',
    'user.name=Dev',
    'commit',
    '-q',
    '--allow-empty',
    '-m',
    'init',
  ])
  sh('git', ['config', 'user.email', 'dev@example.com'])
  sh(process.execPath, [cli, 'init'])
  sh(process.execPath, [cli, 'claim', 'src/a.ts', '-r', 'bench'], { SANGAM_USER: 'bob@example.com' })

  const allow = edit('src/b.ts')
  const deny = edit('src/a.ts')
  // The first run asks git for the project and leaves the locator every later run reads.
  const first = await timed([hook, 'claude'], allow)
  const denied = await timed([hook, 'claude'], deny)
  if (!denied.stdout.includes('"permissionDecision":"deny"'))
    throw new Error(`expected a denial, got ${denied.stdout}`)
  for (let i = 0; i < 5; i++) await timed(['-e', '0'], '')

  const floor: number[] = []
  const allowed: number[] = []
  const refused: number[] = []
  for (let i = 0; i < runs; i++) {
    floor.push((await timed(['-e', '0'], '')).ms)
    allowed.push((await timed([hook, 'claude'], allow)).ms)
    refused.push((await timed([hook, 'claude'], deny)).ms)
  }
  print(
    `PreToolUse hook, ${runs} runs each, interleaved (Node ${process.version}); first run ${first.ms.toFixed(1)} ms`,
  )
  print(summary('node -e 0 (floor)', floor, floor))
  print(summary('PreToolUse allow', allowed, floor))
  print(summary('PreToolUse deny', refused, floor))
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
