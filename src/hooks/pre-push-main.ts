#!/usr/bin/env node
import { spawnSync } from 'node:child_process'
import { accessSync, constants, writeSync } from 'node:fs'
import { readEnvironment } from '../config/environment.ts'
import type { PushVerdict } from './push-gate.ts'
import { readStdin } from './read-stdin.ts'

/**
 * What the installed git `pre-push` script execs: `node pre-push-main.cjs <chained> <remote> <url>`.
 * It reads the ref lines git wrote, decides, and — unless it refuses — runs the hook it chains
 * (the user's own pre-push, if any) with the same arguments and the very same stdin bytes, exiting
 * with its status. A gate that cannot decide lets the push go on, with a warning; a watchdog does
 * the same if the gate overruns its budget. Ending the process here (not in cli/main.ts) is
 * deliberate: the budget must hold even if something hangs.
 */
const budgetMs = 10_000
const [chained = '', remoteName = '', remoteUrl = ''] = process.argv.slice(2)

async function main(): Promise<void> {
  const started = Date.now()
  let decided = false
  let stdin: Buffer = Buffer.alloc(0)
  const input = readStdin()
  const watchdog = setTimeout(() => {
    if (decided) return
    decided = true
    writeSync(2, `sangam: the lease check took longer than ${budgetMs / 1000} s; the push was not checked\n`)
    const status = runChained(stdin)
    if (input.blocking()) process.kill(process.pid, 'SIGTERM')
    else process.exit(status)
  }, budgetMs)

  stdin = await input.bytes
  const verdict = await decide(stdin.toString('utf8'), started)
  if (decided) return
  decided = true
  clearTimeout(watchdog)
  if (verdict.message !== '') writeSync(2, verdict.message)
  if (verdict.projectDir !== null) {
    const { writeHeartbeat } = await import('./hook-heartbeat.ts')
    try {
      writeHeartbeat(verdict.projectDir, {
        host: 'git',
        event: 'pre-push',
        hostVersion: null,
        at: started,
        outcome: verdict.outcome,
        durationMs: Date.now() - started,
      })
    } catch {
      // A heartbeat we cannot write only makes doctor say it has not seen the gate run.
    }
  }
  process.exitCode = verdict.refused ? 1 : runChained(stdin)
}

async function decide(stdin: string, now: number): Promise<PushVerdict> {
  try {
    const { gatePush } = await import('./push-gate.ts')
    return gatePush({ env: readEnvironment(process.env), cwd: process.cwd(), remoteName, stdin, now })
  } catch (error) {
    const why = (error instanceof Error ? error.message : String(error)).split('\n')[0]
    return {
      refused: false,
      message: `sangam: ${why}; the push was not checked\n`,
      outcome: `fail-open: ${why}`,
      projectDir: null,
    }
  }
}

/** Runs the user's own pre-push hook, as git would have: only if it is executable. */
function runChained(input: Buffer): number {
  if (chained === '' || !isExecutable(chained)) return 0
  const result = spawnSync(chained, [remoteName, remoteUrl], { input, stdio: ['pipe', 'inherit', 'inherit'] })
  return result.status ?? 1
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

void main()
