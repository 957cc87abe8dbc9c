import { join } from 'node:path'
import { listCodexHooks } from '../agents/codex/install/codex-app-server.ts'
import { vendorFor } from '../agents/vendors.ts'
import { gitHooksDir } from '../git/hooks-dir.ts'
import { type Heartbeat, readHeartbeats } from '../hooks/hook-heartbeat.ts'
import { type GuardState, readGuardState } from '../lanes/services/guard-state.ts'
import type { DoctorSection } from '../memory/services/capture-report.ts'
import { ourHandlerPositions } from '../own-files/core/hook-config.ts'
import { isOurAgentHandler } from '../own-files/core/our-handler.ts'
import { readJsonObject } from './config-file.ts'
import { isOurPrePush } from './pre-push-installer.ts'

/**
 * The hooks section of `sangam doctor`. A hook counts as working only once it has been seen
 * firing: every run leaves a heartbeat (hook-heartbeat.ts), so an installed hook without one has
 * never run — an untrusted Codex hook, a Claude Code workspace never trusted, `node` missing from
 * the host's PATH all look exactly like that. Codex trust is asked of Codex itself, since a hook
 * it no longer trusts (edited since, or never reviewed) is silently skipped.
 */
export interface HookHealth {
  readonly host: 'claude' | 'codex' | 'git'
  readonly event: string
  /** The files that install this hook (project and user level). */
  readonly installedIn: readonly string[]
  /** Codex only: what Codex says of our hook; `unknown` when Codex could not be asked. */
  readonly trust: string | null
  readonly lastSeen: {
    readonly at: string
    readonly hostVersion: string | null
    readonly outcome: string
    readonly durationMs: number
  } | null
}

export interface HooksSection extends DoctorSection {
  readonly name: 'hooks'
  readonly hooks: readonly HookHealth[]
  /** The main guard: which of its hooks are in place (none while the repository is not armed). */
  readonly guard: GuardState
}

export interface HookHealthInput {
  readonly root: string
  readonly commonDir: string
  readonly projectDir: string
  readonly claudeConfigDir: string
  readonly codexHome: string
  readonly codexBin: string
  readonly timeoutMs: number
}

const agentEvents = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'Stop', 'SessionEnd'] as const

export async function hooksSection(input: HookHealthInput): Promise<HooksSection> {
  const beats = readHeartbeats(input.projectDir)
  const seen = (host: string, event: string): HookHealth['lastSeen'] => lastSeen(beats, host, event)
  const claudeFiles = [
    join(input.root, '.claude', 'settings.json'),
    join(input.claudeConfigDir, 'settings.json'),
  ]
  const codexFiles = [join(input.root, '.codex', 'hooks.json'), join(input.codexHome, 'hooks.json')]
  const trust = await codexTrust(input, codexFiles)
  const hooks: HookHealth[] = [
    ...agentEvents.map((event) => ({
      host: 'claude' as const,
      event,
      installedIn: claudeFiles.filter((file) => installs(file, event)),
      trust: null,
      lastSeen: seen('claude', event),
    })),
    ...agentEvents.map((event) => ({
      host: 'codex' as const,
      event,
      installedIn: codexFiles.filter((file) => installs(file, event)),
      trust: trust.byEvent.get(event) ?? (trust.reason === null ? null : 'unknown'),
      lastSeen: seen('codex', event),
    })),
    {
      host: 'git',
      event: 'pre-push',
      installedIn: prePushFiles(input.root),
      trust: null,
      lastSeen: seen('git', 'pre-push'),
    },
  ]
  const notes = hooks.flatMap((hook) => notesFor(hook))
  const guard = readGuardState(input.root, input.commonDir)
  if (guard.mainBranch !== null && guard.missing.length > 0) {
    notes.push(
      `the main guard protects '${guard.mainBranch}' but ${guard.missing.join(', ')} ${guard.missing.length === 1 ? 'is' : 'are'} not sangam's: run sangam install-hooks (your own hook there is kept and chained)`,
    )
  }
  if (trust.reason !== null && hooks.some((hook) => hook.host === 'codex' && hook.installedIn.length > 0)) {
    notes.push(`could not ask Codex whether it trusts the hooks: ${trust.reason}`)
  }
  return { name: 'hooks', status: notes.length === 0 ? 'ok' : 'warn', notes, hooks, guard }
}

/** One line per hook that is in the way of a lease being enforced, saying what to do. */
function notesFor(hook: HookHealth): string[] {
  const name = `${hostName(hook.host)} ${hook.event}`
  if (hook.installedIn.length === 0) return [`${name} is not installed: run sangam install-hooks`]
  const notes: string[] = []
  if (
    hook.trust !== null &&
    hook.trust !== 'trusted' &&
    hook.trust !== 'managed' &&
    hook.trust !== 'unknown'
  ) {
    notes.push(
      `${name} is ${hook.trust === 'modified' ? 'trusted for an older version of the hook (stale)' : 'not trusted'} by Codex, which skips it silently: run sangam install-hooks again, or review it with /hooks in Codex`,
    )
  }
  if (hook.lastSeen === null) {
    notes.push(
      `${name} is installed (${hook.installedIn.join(', ')}) but has never been seen firing${hint(hook)}`,
    )
  } else if (hook.lastSeen.outcome.startsWith('fail-open')) {
    notes.push(`${name} last ran at ${hook.lastSeen.at} and could not decide: ${hook.lastSeen.outcome}`)
  }
  return notes
}

function hint(hook: HookHealth): string {
  if (hook.host === 'git') return ': it runs on the next git push'
  return vendorFor(hook.host).neverFiredHint(hook.event)
}

function hostName(host: HookHealth['host']): string {
  return host === 'git' ? 'git' : vendorFor(host).displayName
}

function installs(file: string, event: string): boolean {
  try {
    return ourHandlerPositions(readJsonObject(file), isOurAgentHandler, file).some((at) => at.event === event)
  } catch {
    return false
  }
}

function prePushFiles(root: string): string[] {
  try {
    const file = join(gitHooksDir(root), 'pre-push')
    return isOurPrePush(file) ? [file] : []
  } catch {
    return []
  }
}

async function codexTrust(
  input: HookHealthInput,
  files: readonly string[],
): Promise<{ byEvent: Map<string, string>; reason: string | null }> {
  const byEvent = new Map<string, string>()
  if (!files.some((file) => agentEvents.some((event) => installs(file, event))))
    return { byEvent, reason: null }
  const listed = await listCodexHooks({
    codexBin: input.codexBin,
    cwds: [input.root],
    timeoutMs: input.timeoutMs,
  })
  if (!listed.ok) return { byEvent, reason: listed.reason }
  for (const hook of listed.hooks) {
    if (!isOurAgentHandler({ command: hook.command })) continue
    const event = hook.eventName.charAt(0).toUpperCase() + hook.eventName.slice(1)
    // The worst status wins when both levels install the same event.
    if (rank(hook.trustStatus) > rank(byEvent.get(event))) byEvent.set(event, hook.trustStatus)
  }
  return { byEvent, reason: null }
}

function rank(status: string | undefined): number {
  if (status === undefined) return -1
  return status === 'trusted' || status === 'managed' ? 0 : status === 'modified' ? 1 : 2
}

function lastSeen(beats: readonly Heartbeat[], host: string, event: string): HookHealth['lastSeen'] {
  const beat = beats
    .filter((candidate) => candidate.host === host && candidate.event === event)
    .sort((a, b) => b.at - a.at)[0]
  if (beat === undefined) return null
  return {
    at: new Date(beat.at).toISOString(),
    hostVersion: beat.hostVersion,
    outcome: beat.outcome,
    durationMs: beat.durationMs,
  }
}

/** The section as lines for the terminal. */
export function describeHooks(section: HooksSection): string[] {
  const lines = [`hooks   ${section.status}`]
  for (const hook of section.hooks) {
    const where = hook.installedIn.length === 0 ? 'not installed' : 'installed'
    const trust = hook.trust === null ? '' : `, ${hook.trust}`
    const seen =
      hook.lastSeen === null
        ? 'never seen firing'
        : `last fired ${hook.lastSeen.at}${hook.lastSeen.hostVersion ? ` (${hook.lastSeen.hostVersion})` : ''}: ${hook.lastSeen.outcome}, ${hook.lastSeen.durationMs} ms`
    lines.push(`  ${`${hostName(hook.host)} ${hook.event}`.padEnd(24)} ${where}${trust}; ${seen}`)
  }
  const { guard } = section
  lines.push(
    guard.mainBranch === null
      ? `  ${'main guard'.padEnd(24)} not armed (sangam init --guard, or sangam lane, protects main)`
      : `  ${'main guard'.padEnd(24)} protects '${guard.mainBranch}': ${guard.installed.length} of 6 hooks installed${guard.missing.length > 0 ? `, missing ${guard.missing.join(', ')}` : ''}`,
  )
  return [...lines, ...section.notes.map((note) => `  note: ${note}`)]
}
