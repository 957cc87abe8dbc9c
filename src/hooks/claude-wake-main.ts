#!/usr/bin/env node
import { writeSync } from 'node:fs'
import { waitForWake } from '../agents/claude/hooks/claude-wake-waiter.ts'
import { vendorFor } from '../agents/vendors.ts'
import { readEnvironment } from '../config/environment.ts'
import { locateProject } from './project-locator.ts'
import { readStdin } from './read-stdin.ts'

/**
 * The command Claude Code runs as its wake waiter: `node claude-wake-main.cjs`, a `Stop` hook with
 * `asyncRewake: true` (agents/claude/hooks/claude-wake-waiter.ts, D370). Its own bundle and composition root:
 * it lives as long as the session stays idle, far past the agent hook's time budget, so it shares
 * nothing of that hook's watchdog.
 */
async function main(): Promise<void> {
  const input = readStdin(1024 * 1024)
  const ended = new Promise<void>((resolve) => {
    process.once('SIGTERM', () => resolve())
    process.once('SIGHUP', () => resolve())
  })
  const stdin = (await input.bytes).toString('utf8')
  let exitCode: 0 | 2 = 0
  try {
    const env = readEnvironment(process.env)
    const result = await waitForWake({
      stdin,
      env,
      version: vendorFor('claude').hostVersion(process.env),
      entrypoint: process.env.CLAUDE_CODE_ENTRYPOINT ?? null,
      cwd: process.cwd(),
      projectDirOf: async (cwd) => {
        const located = await locateProject(env.sangamHome, cwd, Date.now())
        return located === null || 'missingDatabase' in located ? null : located.projectDir
      },
      pid: process.pid,
      parentPid: () => process.ppid,
      now: () => Date.now(),
      // Synchronous: the prompt must be whole on stderr before the exit that wakes the model.
      writeStderr: (text) => {
        writeSync(2, text)
      },
      ended,
    })
    exitCode = result.exitCode
  } catch {
    // Whatever failed, the session goes on as it would without us: no wake, nothing shown.
  }
  // Ending here (not in cli/main.ts) is deliberate: exit code 2 is the wake itself, and a stdin
  // read still in flight on Claude Code's socket must not hold it back.
  process.exit(exitCode)
}

void main()
