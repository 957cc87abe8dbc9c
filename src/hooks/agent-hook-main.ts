#!/usr/bin/env node
import { writeSync } from 'node:fs'
import { vendorFor, vendorNamed } from '../agents/vendors.ts'
import { readEnvironment } from '../config/environment.ts'
import { systemClock } from '../shared/clock.ts'
import { systemRandom } from '../shared/random.ts'
import { failOpen, type HookAnswer, withKeptWork } from './hook-answer.ts'
import { HookWork } from './hook-work.ts'
import { readStdin } from './read-stdin.ts'

/**
 * The command Claude Code, Codex and Gemini CLI run for every hook event:
 * `node agent-hook-main.cjs <vendor>`. A host with hook events of its own (Gemini CLI) has its
 * payload and answer translated at this edge, by its descriptor's `hookDialect`; the rest is shared.
 *
 * Built for start-up time: `npm run build` bundles this entry and what it reaches into one
 * CommonJS file (scripts/build-bundles.mjs), whose modules initialise only when first imported; this
 * file itself needs only what the watchdog needs. The watchdog is the hard time budget: whatever
 * is still running at 1.5 s, far below the hosts' timeouts, it answers "allow, unchecked" and ends
 * the process. Ending the process here (not in cli/main.ts) is deliberate: a budget that waited
 * for the event loop would not be hard.
 *
 * Giving up is never silent and loses nothing (hook-work.ts): the watchdog first keeps every step
 * of the run still open (an auto-lease waiting for the team server, presence for a locked store)
 * in the project's journal, and its answer names them; the daemon or a later hook does them.
 */
const budgetMs = 1500
/**
 * A budget spent before the hook even read its input (a starved process on a loaded machine): the
 * answer goes out at the budget, and the process lives at most this much longer, only to read the
 * input and keep what it asks for, doing none of it.
 */
const keepGraceMs = 1000
/** The drain of earlier hooks' kept work, after the answer, starts no step this close to the budget. */
const drainMarginMs = 250
/** Past this, stdin is not read as a payload (the Write of a huge file); the answer says so. */
const stdinCapBytes = 64 * 1024 * 1024

async function main(): Promise<void> {
  const started = Date.now()
  // opencode's plugin (agents/opencode/install/opencode-plugin.ts) runs this hook with its own name as host.
  const host = vendorNamed(process.argv[2])?.name ?? 'claude'
  const dialect = vendorFor(host).hookDialect
  let eventName: string | null = null
  /** The host's own name of the event, once stdin is read (a host with a dialect of its own). */
  let hostEvent = ''
  let answered = false
  const answer = (reply: HookAnswer): boolean => {
    if (answered) return false
    answered = true
    const stdout = dialect === null ? reply.stdout : dialect.answerOut(hostEvent, reply.stdout)
    // Synchronous writes: the answer must be complete before any exit.
    if (stdout !== '') writeSync(1, stdout)
    if (reply.stderr !== '') writeSync(2, reply.stderr)
    return true
  }
  const work = new HookWork(started, process.pid)
  const input = readStdin(stdinCapBytes)
  const end = (): void => {
    // Node cannot exit while a thread-pool read of a socket blocks (a host that never closed our
    // stdin); a signal ends the process all the same, and the host treats that exit as "no decision".
    if (input.blocking()) process.kill(process.pid, 'SIGTERM')
    else process.exit(0)
  }
  const watchdog = setTimeout(() => {
    const why = `no decision within the ${budgetMs} ms time budget`
    if (!work.begun && !answered) {
      work.spend()
      answer(
        failOpen(
          eventName,
          `${why}, before the hook had read its input; what the input asks to record is kept`,
        ),
      )
      setTimeout(end, keepGraceMs)
      return
    }
    const kept = work.keepOpen(why)
    answer(withKeptWork(failOpen(eventName, why), eventName, kept))
    end()
  }, budgetMs)

  const env = readEnvironment(process.env)
  // Started before stdin is awaited: the modules initialise (node:sqlite's among them) while
  // the thread pool reads.
  const loading = import('./agent-hook.ts')
  const raw = (await input.bytes).toString('utf8')
  if (dialect !== null) hostEvent = dialect.eventOf(raw)
  const stdin = dialect === null ? raw : dialect.payloadIn(raw)
  const { runAgentHook } = await loading
  const result = await runAgentHook({
    host,
    stdin,
    stdinOverCap: input.total() > stdinCapBytes ? stdinCapBytes : null,
    env,
    random: systemRandom,
    cwd: process.cwd(),
    now: Date.now(),
    pid: process.pid,
    work,
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
        hostVersion: vendorFor(host).hostVersion(process.env),
        at: started,
        outcome: result.answer.outcome,
        durationMs: Date.now() - started,
      })
    } catch {
      // The answer is out; a heartbeat we cannot write only makes doctor say it has not seen us.
    }
  }
  // The budget ran out before the run began: its work is kept, and the grace is not waited for.
  if (work.spent) end()
  if (result.workWaiting && result.project !== null) {
    try {
      const { drainAfterAnswer } = await import('./drain-after-answer.ts')
      await drainAfterAnswer({
        project: result.project,
        env,
        clock: systemClock,
        pid: process.pid,
        deadline: started + budgetMs - drainMarginMs,
      })
    } catch {
      // The kept work stays in the journal for the daemon or the next hook.
    }
  }
  // Nothing left may keep the host waiting, but the budget still ends a straggler. Stdin still
  // being drained (a payload over the cap) keeps the watchdog armed until its end: a host that
  // never closes it would otherwise keep this process alive.
  void input.finished.then(() => watchdog.unref())
}

void main()
