import type { Environment } from '../config/environment.ts'
import { resolveHuman } from '../services/human.ts'
import type { Random } from '../shared/random.ts'
import { editTargets } from './edit-targets.ts'
import { failOpen, type HookAnswer, quiet } from './hook-answer.ts'
import { parseHookPayload } from './hook-payload.ts'
import { type LocatedProject, locateProject } from './project-locator.ts'

/** The agent CLIs whose hooks run this file. */
export type AgentHost = 'claude' | 'codex'

/**
 * One run of the Claude Code / Codex hook: parse stdin, find the project, answer the event.
 * `PreToolUse` gates edits against leases, `SessionStart` hands the brief to the model,
 * `SessionEnd` may release the session's leases; `SessionStart`, `UserPromptSubmit`, `Stop` and
 * `SessionEnd` record the session's presence in the room (online, online, idle, offline). Any failure to read the store or decide in time
 * fails open (DESIGN §4): the work goes on and the answer says nothing was checked.
 */
export interface AgentHookRun {
  readonly host: AgentHost
  readonly stdin: string
  /** The cap in bytes when stdin held more than the hook reads (`stdin` is then cut), else null. */
  readonly stdinOverCap: number | null
  readonly env: Environment
  /** Only for the machine id, created by the first hook that needs it. */
  readonly random: Random
  /** The process's own cwd, used when the payload carries none. */
  readonly cwd: string
  readonly now: number
  /** Called as soon as the event is known, so a budget watchdog can answer in its terms. */
  onEvent(eventName: string): void
}

export interface AgentHookResult {
  readonly answer: HookAnswer
  readonly eventName: string | null
  /** Where the heartbeat goes; null when no project was found. */
  readonly project: LocatedProject | null
}

export async function runAgentHook(run: AgentHookRun): Promise<AgentHookResult> {
  if (run.stdinOverCap !== null) return overCap(run.stdin, run.stdinOverCap)
  const payload = parseHookPayload(run.stdin)
  if (payload === null) {
    return {
      answer: failOpen(null, 'hook stdin is not a Claude Code or Codex hook payload'),
      eventName: null,
      project: null,
    }
  }
  run.onEvent(payload.eventName)
  const at = { eventName: payload.eventName, project: null }
  const targets = payload.eventName === 'PreToolUse' ? editTargets(payload) : []
  if (targets === null) return { ...at, answer: quiet('ignored') }
  const cwd = payload.cwd ?? run.cwd
  let located: Awaited<ReturnType<typeof locateProject>>
  try {
    located = await locateProject(run.env.sangamHome, cwd, run.now)
  } catch (error) {
    return { ...at, answer: failOpen(payload.eventName, `cannot find the project: ${messageOf(error)}`) }
  }
  if (located === null) return { ...at, answer: quiet('not a sangam project') }
  if ('missingDatabase' in located) {
    const why =
      located.otherDatabases.length === 0
        ? `the project's store ${located.missingDatabase} is missing; run \`sangam init\` in this repository`
        : `the project's store ${located.missingDatabase} is missing, but this checkout has another: ${located.otherDatabases.join(', ')} (its leases were not checked either); run \`sangam init\` in this repository, which adopts it`
    return { ...at, answer: failOpen(payload.eventName, why) }
  }
  const project = located
  const actor = {
    human: resolveHuman(run.env, project.gitUser),
    vendor: run.host,
    sessionId: payload.sessionId,
  }
  const mark = { project, actor, env: run.env, random: run.random, now: run.now }
  try {
    switch (payload.eventName) {
      case 'PreToolUse': {
        const { gateEdit } = await import('./edit-gate.ts')
        const answer = await gateEdit({ project, actor, cwd, targets, now: run.now })
        return { eventName: payload.eventName, project, answer }
      }
      case 'SessionStart': {
        const { markPresence } = await import('./presence-mark.ts')
        markPresence({ ...mark, state: 'online' })
        if (run.host === 'codex' && run.env.codexEndpoint !== undefined) {
          const { markCodexEndpoint } = await import('./codex-endpoint-mark.ts')
          markCodexEndpoint({ project, sessionId: payload.sessionId, env: run.env, now: run.now })
        }
        const { briefForSession } = await import('./session-brief.ts')
        const answer = briefForSession({ ...mark, cwd })
        return { eventName: payload.eventName, project, answer }
      }
      case 'SessionEnd': {
        const { markPresence } = await import('./presence-mark.ts')
        markPresence({ ...mark, state: 'offline' })
        const { endSession } = await import('./session-end.ts')
        return {
          eventName: payload.eventName,
          project,
          answer: await endSession({ project, actor, now: run.now }),
        }
      }
      case 'UserPromptSubmit': {
        const { submitPrompt } = await import('./prompt-submit.ts')
        return { eventName: payload.eventName, project, answer: submitPrompt(mark) }
      }
      case 'Stop': {
        const { stopTurn } = await import('./turn-stop.ts')
        return {
          eventName: payload.eventName,
          project,
          answer: await stopTurn(run.host, mark, payload.stopHookActive),
        }
      }
      default:
        return { eventName: payload.eventName, project, answer: quiet('ignored') }
    }
  } catch (error) {
    // Fail open on purpose: a hook that throws would otherwise show the user a hook error and,
    // worse, give the agent no word that its edit went unchecked.
    return { eventName: payload.eventName, project, answer: failOpen(payload.eventName, messageOf(error)) }
  }
}

/**
 * A payload past the cap (a Write of a huge file carries its whole content) is not read: the edit
 * goes through unchecked, and the answer says why. The event name is looked for in what was read
 * (hosts write it before the tool input), so a PreToolUse answer reaches the model as context.
 */
function overCap(prefix: string, capBytes: number): AgentHookResult {
  const eventName = /"hook_event_name"\s*:\s*"([A-Za-z]+)"/.exec(prefix.slice(0, 64 * 1024))?.[1] ?? null
  const why = `hook stdin is over the ${capBytes / 1024 / 1024} MiB a hook reads, so it is not read as a hook payload`
  return { answer: failOpen(eventName, why), eventName, project: null }
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown error'
}
