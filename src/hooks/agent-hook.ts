import { type HookPayload, parseHookPayload } from '../agents/hook-payload.ts'
import { hookWorkDir } from '../config/data-paths.ts'
import type { Environment } from '../config/environment.ts'
import type { WorkSession } from '../hook-work/services/kept-work.ts'
import { claimSessionMail, dropOwedBriefs, type SessionMail } from '../hook-work/services/session-mail.ts'
import { type JournalEntry, journalEntries } from '../hook-work/services/work-journal.ts'
import type { Actor } from '../identity/protocol/actor.ts'
import { resolveHuman } from '../identity/services/human.ts'
import type { Random } from '../shared/random.ts'
import type { VendorName } from '../shared/vendor-names.ts'
import { editTargets } from './edit-targets.ts'
import { failOpen, type HookAnswer, quiet, withContext, withKeptWork } from './hook-answer.ts'
import type { HookWork } from './hook-work.ts'
import { plannedSteps } from './planned-steps.ts'
import type { PresenceMark } from './presence-mark.ts'
import { type LocatedProject, locateProject } from './project-locator.ts'

/** The agent CLIs whose hooks run this file. */
export type AgentHost = VendorName

/**
 * One run of the agent hook (Claude Code's, Codex's, Gemini CLI's, opencode's plugin's): parse stdin, find the project, answer the event.
 * `PreToolUse` gates edits against leases, `SessionStart` hands the brief to the model,
 * `SessionEnd` may release the session's leases; `SessionStart`, `UserPromptSubmit`, `Stop` and
 * `SessionEnd` record the session's presence in the room (online, online, idle, offline). Any
 * failure to read the store or decide in time fails open (DESIGN §4): the work goes on and the
 * answer says nothing was checked. What the run could not finish (an auto-lease the server did not
 * confirm in time, presence in a locked store, …) is kept in the project's journal, done
 * afterwards by the daemon or a later hook, and the answer says so (hook-work.ts). The session's
 * notices from that later work, and a brief its start owed it, come with its next answer.
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
  readonly pid: number
  /** The run's work, shared with the budget's watchdog, which keeps what is still open. */
  readonly work: HookWork
  /** Called as soon as the event is known, so a budget watchdog can answer in its terms. */
  onEvent(eventName: string): void
}

export interface AgentHookResult {
  readonly answer: HookAnswer
  readonly eventName: string | null
  /** Where the heartbeat goes; null when no project was found. */
  readonly project: LocatedProject | null
  /** The project's journal holds kept work of earlier hooks: the caller drains it after answering. */
  readonly workWaiting: boolean
}

export async function runAgentHook(run: AgentHookRun): Promise<AgentHookResult> {
  if (run.stdinOverCap !== null) return overCap(run.stdin, run.stdinOverCap)
  const payload = parseHookPayload(run.stdin)
  if (payload === null) {
    return {
      answer: failOpen(
        null,
        'hook stdin is not a hook payload of Claude Code, Codex, Gemini CLI or opencode',
      ),
      eventName: null,
      project: null,
      workWaiting: false,
    }
  }
  run.onEvent(payload.eventName)
  const at = { eventName: payload.eventName, project: null, workWaiting: false }
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
  // Planned before any of it starts: a budget that runs out at any point finds it all still open.
  const session = { human: actor.human, vendor: run.host, sessionId: payload.sessionId }
  const dir = hookWorkDir(project.projectDir)
  run.work.begin(dir, payload.eventName, session)
  const plan = { host: run.host, eventName: payload.eventName, targets, cwd, project, env: run.env }
  for (const step of plannedSteps({ ...plan, stopHookActive: payload.stopHookActive })) run.work.plan(step)
  const entries = journalEntries(dir)
  const found = {
    eventName: payload.eventName,
    project,
    workWaiting: entries.some((entry) => entry.type === 'work' && entry.claimedBy === null),
  }
  if (run.work.spent) {
    // The watchdog answered before this run began; nothing is started, everything is kept.
    const kept = run.work.keepOpen('the time budget ran out before the hook could begin')
    return { ...found, answer: withKeptWork(quiet('fail-open: time budget'), payload.eventName, kept) }
  }
  const mail = contextEvents.has(payload.eventName)
    ? claimSessionMail({
        dir,
        entries,
        session,
        pid: run.pid,
        withBrief: payload.eventName === 'UserPromptSubmit',
      })
    : null
  if (payload.eventName === 'SessionEnd') dropOwedBriefs({ dir, entries, session, pid: run.pid })
  const mark = { project, actor, env: run.env, random: run.random, now: run.now }
  const event: EventRun = { run, payload, project, actor, session, cwd, targets, mark, mail, dir, entries }
  let answered: { readonly answer: HookAnswer; readonly briefGiven: boolean }
  try {
    answered = await answerEvent(event)
  } catch (error) {
    // Fail open on purpose: a hook that throws would otherwise show the user a hook error and,
    // worse, give the agent no word that its edit went unchecked. What it had still to do is kept.
    run.work.failOpen(error)
    answered = { answer: failOpen(payload.eventName, messageOf(error)), briefGiven: false }
  }
  const told = withContext(answered.answer, payload.eventName, mail?.notices ?? [])
  const answer = withKeptWork(told, payload.eventName, run.work.kept())
  const inner = answered.answer.settle
  return {
    ...found,
    answer: {
      ...answer,
      settle:
        inner === undefined && mail === null
          ? undefined
          : (delivered) => {
              try {
                inner?.(delivered)
              } finally {
                mail?.settle(delivered, answered.briefGiven)
              }
            },
    },
  }
}

/** The events whose answer can carry the session's notices to its model. */
const contextEvents: ReadonlySet<string> = new Set(['PreToolUse', 'SessionStart', 'UserPromptSubmit'])

interface EventRun {
  readonly run: AgentHookRun
  readonly payload: HookPayload
  readonly project: LocatedProject
  readonly actor: Actor
  readonly session: WorkSession
  readonly cwd: string
  readonly targets: readonly string[]
  readonly mark: Omit<PresenceMark, 'state'>
  readonly mail: SessionMail | null
  readonly dir: string
  readonly entries: readonly JournalEntry[]
}

/** The event's own work and answer; each planned step is marked done or kept as it goes. */
async function answerEvent(
  event: EventRun,
): Promise<{ readonly answer: HookAnswer; readonly briefGiven: boolean }> {
  const { run, payload, project, actor, cwd, mark } = event
  const { work } = run
  const plain = (answer: HookAnswer) => ({ answer, briefGiven: false })
  switch (payload.eventName) {
    case 'PreToolUse': {
      const { gateEdit } = await import('./edit-gate.ts')
      const autoLease = work.handle('auto-lease')
      return plain(await gateEdit({ project, actor, cwd, targets: event.targets, now: run.now, autoLease }))
    }
    case 'SessionStart': {
      const { markPresence } = await import('./presence-mark.ts')
      markPresence({ ...mark, state: 'online' }, work.handle('presence'))
      if (run.host === 'codex' && run.env.codexEndpoint !== undefined) {
        const [{ codexEndpointWrite }, { writeHookStep }] = await Promise.all([
          import('../agents/codex/hooks/codex-endpoint-mark.ts'),
          import('./hook-store.ts'),
        ])
        const write = codexEndpointWrite({ sessionId: payload.sessionId, env: run.env, now: run.now })
        if (write !== null)
          writeHookStep(
            project.databaseFile,
            'codex endpoint not recorded',
            write,
            work.handle('codex-endpoint'),
          )
      }
      const { briefForSession } = await import('./session-brief.ts')
      const answer = briefForSession({ ...mark, cwd })
      const brief = work.handle('brief')
      const { dir, entries, session } = event
      return plain({
        ...answer,
        settle: (delivered) => {
          try {
            answer.settle?.(delivered)
          } finally {
            if (delivered) {
              brief.done()
              // A resumed session's fresh brief covers one its earlier start still owed.
              dropOwedBriefs({ dir, entries, session, pid: run.pid })
            } else brief.keep('its answer was not delivered')
          }
        },
      })
    }
    case 'SessionEnd': {
      const { markPresence } = await import('./presence-mark.ts')
      markPresence({ ...mark, state: 'offline' }, work.handle('presence'))
      const { endSession } = await import('./session-end.ts')
      const answer = await endSession({ project, actor, now: run.now })
      work.handle('release').done()
      return plain(answer)
    }
    case 'UserPromptSubmit': {
      if (event.mail?.briefOwed === true) {
        const late = await lateBrief(event)
        if (late !== null) return { answer: late, briefGiven: true }
      }
      const { submitPrompt } = await import('./prompt-submit.ts')
      return plain(submitPrompt(mark, work.handle('presence')))
    }
    case 'Stop': {
      const { stopTurn } = await import('./turn-stop.ts')
      const steps = { pane: work.handle('pane'), presence: work.handle('presence') }
      return plain(await stopTurn(run.host, mark, payload.stopHookActive, steps))
    }
    default:
      return plain(quiet('ignored'))
  }
}

/**
 * The brief a session's start kept for its next prompt, given with this one (in place of the
 * prompt's room messages, which the brief carries first). Null when it cannot be assembled now:
 * the prompt is answered as usual, and the brief waits for the next one.
 */
async function lateBrief(event: EventRun): Promise<HookAnswer | null> {
  const { markPresence } = await import('./presence-mark.ts')
  markPresence({ ...event.mark, state: 'online' }, event.run.work.handle('presence'))
  try {
    const { briefForSession } = await import('./session-brief.ts')
    return briefForSession({ ...event.mark, cwd: event.cwd, late: true })
  } catch {
    return null
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
  return { answer: failOpen(eventName, why), eventName, project: null, workWaiting: false }
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown error'
}
