#!/usr/bin/env node
import { writeSync } from 'node:fs'
import { readEnvironment } from '../config/environment.ts'
import { systemRandom } from '../shared/random.ts'
import { failOpen, type HookAnswer } from './hook-answer.ts'
import { hostVersion } from './host-version.ts'
import { readStdin } from './read-stdin.ts'

/**
 * The command Claude Code and Codex run for every hook event: `node agent-hook-main.cjs <claude|codex>`.
 *
 * Built for start-up time: `npm run build` bundles this entry and what it reaches into one
 * CommonJS file (scripts/build-bundles.mjs), whose modules initialise only when first imported; this
 * file itself needs only what the watchdog needs. The watchdog is the hard time budget: whatever
 * is still running at 1.5 s, far below the hosts' timeouts, it answers "allow, unchecked" and ends
 * the process. Ending the process here (not in cli/main.ts) is deliberate: a budget that waited
 * for the event loop would not be hard.
 */
const budgetMs = 1500
/** Past this, stdin is not read as a payload (the Write of a huge file); the answer says so. */
const stdinCapBytes = 64 * 1024 * 1024

async function main(): Promise<void> {
  const started = Date.now()
  const host = process.argv[2] === 'codex' ? 'codex' : 'claude'
  let eventName: string | null = null
  let answered = false
  const answer = (reply: HookAnswer): boolean => {
    if (answered) return false
    answered = true
    // Synchronous writes: the answer must be complete before any exit.
    if (reply.stdout !== '') writeSync(1, reply.stdout)
    if (reply.stderr !== '') writeSync(2, reply.stderr)
    return true
  }
  const input = readStdin(stdinCapBytes)
  const watchdog = setTimeout(() => {
    answer(failOpen(eventName, `no decision within the ${budgetMs} ms time budget`))
    // Node cannot exit while a thread-pool read of a socket blocks (a host that never closed our
    // stdin); a signal ends the process all the same, and the host treats that exit as "no decision".
    if (input.blocking()) process.kill(process.pid, 'SIGTERM')
    else process.exit(0)
  }, budgetMs)

  const env = readEnvironment(process.env)
  // Started before stdin is awaited: the modules initialise (better-sqlite3's among them) while
  // the thread pool reads.
  const loading = import('./agent-hook.ts')
  const stdin = (await input.bytes).toString('utf8')
  const { runAgentHook } = await loading
  const result = await runAgentHook({
    host,
    stdin,
    stdinOverCap: input.total() > stdinCapBytes ? stdinCapBytes : null,
    env,
    random: systemRandom,
    cwd: process.cwd(),
    now: Date.now(),
    onEvent: (name) => {
      eventName = name
    },
  })
  const delivered = answer(result.answer)
  try {
    // After the write, never before: a cursor moves only past what an answer carried.
    result.answer.settle?.(delivered)
  } catch {
    // Not committed: the room's messages are carried again by the next prompt.
  }
  if (result.project !== null) {
    const { writeHeartbeat } = await import('./hook-heartbeat.ts')
    try {
      writeHeartbeat(result.project.projectDir, {
        host,
        event: result.eventName ?? 'unknown',
        hostVersion: hostVersion(host, process.env),
        at: started,
        outcome: result.answer.outcome,
        durationMs: Date.now() - started,
      })
    } catch {
      // The answer is out; a heartbeat we cannot write only makes doctor say it has not seen us.
    }
  }
  // Nothing left may keep the host waiting, but the budget still ends a straggler. Stdin still
  // being drained (a payload over the cap) keeps the watchdog armed until its end: a host that
  // never closes it would otherwise keep this process alive.
  void input.finished.then(() => watchdog.unref())
}

void main()
