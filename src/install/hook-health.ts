import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { claudeGroups, claudeProjectEntry } from '../agents/claude/install/claude-hook-groups.ts'
import { listCodexHooks } from '../agents/codex/install/codex-app-server.ts'
import { codexGroups } from '../agents/codex/install/codex-hook-groups.ts'
import { geminiEventFor } from '../agents/gemini/core/gemini-hook-events.ts'
import { geminiGroups } from '../agents/gemini/install/gemini-hook-groups.ts'
import {
  opencodePluginFile,
  opencodePluginSource,
  ourPlugin,
  usesOpencode,
} from '../agents/opencode/install/opencode-plugin.ts'
import { vendorFor } from '../agents/vendors.ts'
import { gitHooksDir } from '../git/hooks-dir.ts'
import { type Heartbeat, readHeartbeats } from '../hooks/hook-heartbeat.ts'
import { type GuardState, readGuardState } from '../lanes/services/guard-state.ts'
import type { DoctorSection } from '../memory/services/capture-report.ts'
import { addOurGroups, type HookGroup, ourHandlerPositions } from '../own-files/core/hook-config.ts'
import { isOurAgentHandler } from '../own-files/core/our-handler.ts'
import { readJsonObject } from '../own-files/services/config-file.ts'
import type { HookEntries } from '../own-files/services/hook-entries.ts'
import type { VendorName } from '../shared/vendor-names.ts'
import { isOurPrePush } from './pre-push-installer.ts'

/**
 * The hooks section of `sangam doctor`. A hook counts as working only once it has been seen
 * firing: every run leaves a heartbeat (hook-heartbeat.ts), so an installed hook without one has
 * never run — an untrusted Codex hook, a Claude Code workspace never trusted, `node` missing from
 * the host's PATH all look exactly like that. Codex trust is asked of Codex itself, since a hook
 * it no longer trusts (edited since, or never reviewed) is silently skipped. Each host's entries
 * are compared with what this sangam's `install-hooks` writes, so a hook left by an older install
 * or pointing at another copy of sangam is named (Claude Code, Codex, Gemini CLI settings, the
 * opencode plugin's source alike).
 */
export interface HookHealth {
  readonly host: 'claude' | 'codex' | 'gemini' | 'opencode' | 'git'
  /**
   * The event as the host's configuration names it (Gemini CLI's `BeforeTool`, …); opencode's
   * plugin asks sangam's events by their Claude Code names, so those are its rows.
   */
  readonly event: string
  /** The files that install this hook (project and user level; opencode: its plugin files). */
  readonly installedIn: readonly string[]
  /**
   * Those of `installedIn` whose entry is not what this sangam's `install-hooks` writes now: an
   * older version's, or another copy of sangam's path. Empty when this sangam's hook entries
   * cannot be found (a build without `dist/hooks/`).
   */
  readonly outdatedIn: readonly string[]
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
  /** Gemini CLI's `~/.gemini` (`$GEMINI_CLI_HOME/.gemini`). */
  readonly geminiDir: string
  /** opencode's user config directory (`$XDG_CONFIG_HOME/opencode`). */
  readonly opencodeConfigDir: string
  /** This sangam's hook entries, what a current install names; null when they cannot be found. */
  readonly entries: HookEntries | null
  readonly codexBin: string
  readonly timeoutMs: number
}

const agentEvents = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'Stop', 'SessionEnd'] as const

/** A host configuration file and the groups a current install puts in it (null: unknown). */
interface HookFile {
  readonly file: string
  readonly groups: Readonly<Record<string, HookGroup>> | null
}

export async function hooksSection(input: HookHealthInput): Promise<HooksSection> {
  const beats = readHeartbeats(input.projectDir)
  const seen = (host: string, event: string): HookHealth['lastSeen'] => lastSeen(beats, host, event)
  const entries = input.entries
  const claudeFiles: HookFile[] = [
    {
      file: join(input.root, '.claude', 'settings.json'),
      groups: entries && claudeGroups(claudeProjectEntry(entries, input.root)),
    },
    {
      file: join(input.claudeConfigDir, 'settings.json'),
      groups: entries && claudeGroups(entries.agentHook),
    },
  ]
  const codexFiles: HookFile[] = [
    join(input.root, '.codex', 'hooks.json'),
    join(input.codexHome, 'hooks.json'),
  ].map((file) => ({ file, groups: entries && codexGroups(entries.agentHook) }))
  const geminiFiles: HookFile[] = [
    join(input.root, '.gemini', 'settings.json'),
    join(input.geminiDir, 'settings.json'),
  ].map((file) => ({ file, groups: entries && geminiGroups(entries.agentHook) }))
  const trust = await codexTrust(
    input,
    codexFiles.map((candidate) => candidate.file),
  )
  // opencode's plugin is installed only where the project uses opencode (D464): elsewhere its
  // absence is as install-hooks leaves it, not something to fix.
  const opencodeExpected = usesOpencode(input.root) || existsSync(input.opencodeConfigDir)
  const rows: HookRow[] = [
    ...agentEvents.map((event) =>
      agentRow(
        {
          host: 'claude',
          event,
          ...installedIn(claudeFiles, event),
          trust: null,
          lastSeen: seen('claude', event),
        },
        event,
      ),
    ),
    ...agentEvents.map((event) =>
      agentRow(
        {
          host: 'codex',
          event,
          ...installedIn(codexFiles, event),
          trust: trust.byEvent.get(event) ?? (trust.reason === null ? null : 'unknown'),
          lastSeen: seen('codex', event),
        },
        event,
      ),
    ),
    ...agentEvents.map((event) => {
      // Gemini CLI names its events its own way; its hook runs (and heartbeats) in sangam's terms.
      const geminiEvent = geminiEventFor(event) ?? event
      return agentRow(
        {
          host: 'gemini',
          event: geminiEvent,
          ...installedIn(geminiFiles, geminiEvent),
          trust: null,
          lastSeen: seen('gemini', event),
        },
        event,
      )
    }),
    ...opencodeHooks(input, seen).map((hook) => ({
      ...agentRow(hook, hook.event),
      absentIsFault: opencodeExpected,
    })),
    {
      hook: {
        host: 'git',
        event: 'pre-push',
        installedIn: prePushFiles(input.root),
        outdatedIn: [],
        trust: null,
        lastSeen: seen('git', 'pre-push'),
      },
      name: 'git pre-push',
      hint: ': it runs on the next git push',
      absentIsFault: true,
    },
  ]
  const hooks = rows.map((row) => row.hook)
  const notes = notesOf(rows)
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

/** The files of `files` that install `event`, and those of them whose entry is not current. */
function installedIn(
  files: readonly HookFile[],
  event: string,
): Pick<HookHealth, 'installedIn' | 'outdatedIn'> {
  const found = files.filter((candidate) => installs(candidate.file, event))
  return {
    installedIn: found.map((candidate) => candidate.file),
    outdatedIn: found.filter((candidate) => !current(candidate, event)).map((candidate) => candidate.file),
  }
}

/**
 * opencode has one plugin file per level, serving all five events: each event's row names the
 * plugin files, and a plugin whose source is not the one this sangam writes is outdated.
 */
function opencodeHooks(
  input: HookHealthInput,
  seen: (host: string, event: string) => HookHealth['lastSeen'],
): (HookHealth & { readonly host: 'opencode' })[] {
  const plugins = [join(input.root, '.opencode'), input.opencodeConfigDir].flatMap((dir) => {
    const found = ourPlugin(opencodePluginFile(dir))
    return found === null ? [] : [found]
  })
  const wanted = input.entries === null ? null : opencodePluginSource(input.entries.agentHook)
  const outdated = plugins.filter((plugin) => wanted !== null && plugin.source !== wanted)
  return agentEvents.map((event) => ({
    host: 'opencode' as const,
    event,
    installedIn: plugins.map((plugin) => plugin.file),
    outdatedIn: outdated.map((plugin) => plugin.file),
    trust: null,
    lastSeen: seen('opencode', event),
  }))
}

/** A row of the section, with what its notes say: its name, why it may not have fired yet. */
interface HookRow {
  readonly hook: HookHealth
  readonly name: string
  readonly hint: string
  /** Whether its absence is a fault to fix (install-hooks would have put it there). */
  readonly absentIsFault: boolean
}

/** An agent host's row; `event` in sangam's terms, as the vendor's hint takes it. */
function agentRow(hook: HookHealth & { readonly host: VendorName }, event: string): HookRow {
  const vendor = vendorFor(hook.host)
  return {
    hook,
    name: `${vendor.displayName} ${hook.event}`,
    hint: vendor.neverFiredHint(event),
    absentIsFault: true,
  }
}

/**
 * The rows' notes, in order. A host none of whose hooks has fired yet (installed before its first
 * session, the usual first day) gets one line for all of them, not one per event.
 */
function notesOf(rows: readonly HookRow[]): string[] {
  const unseenHosts = new Set(
    rows
      .filter((row) => row.hook.host !== 'git')
      .map((row) => row.hook.host)
      .filter((host) =>
        rows
          .filter((row) => row.hook.host === host)
          .every((row) => row.hook.installedIn.length > 0 && row.hook.lastSeen === null),
      ),
  )
  const told = new Set<string>()
  return rows.flatMap((row) => {
    const host = row.hook.host
    if (!unseenHosts.has(host)) return notesFor(row, false)
    const first = !told.has(host)
    told.add(host)
    const hostNote = first
      ? [
          unseenHostNote(
            host,
            rows.filter((other) => other.hook.host === host),
          ),
        ]
      : []
    return [...hostNote, ...notesFor(row, true)]
  })
}

/** One line for an agent host none of whose hooks has fired: how to start it, and when its edit check runs. */
function unseenHostNote(host: HookHealth['host'], rows: readonly HookRow[]): string {
  const files = [...new Set(rows.flatMap((row) => row.hook.installedIn))]
  // Every event but the edit check shares the hint "start a session"; the edit check says when it runs.
  const start = rows[0]?.hint ?? ''
  const gate = rows.find((row) => row.hint !== start)
  const when = gate === undefined ? '' : `; ${gate.hook.event}${gate.hint.replace(/^: it /, ' ')}`
  return `${hostName(host)}'s hooks are installed (${files.join(', ')}) but none has been seen firing${start}${when}`
}

/**
 * One line per hook that is in the way of a lease being enforced, saying what to do; `hostUnseen`:
 * its host's line already says that none of its hooks has fired.
 */
function notesFor({ hook, name, hint, absentIsFault }: HookRow, hostUnseen: boolean): string[] {
  if (hook.installedIn.length === 0)
    return absentIsFault ? [`${name} is not installed: run sangam install-hooks`] : []
  const notes: string[] = []
  if (hook.outdatedIn.length > 0) {
    notes.push(
      `${name} in ${hook.outdatedIn.join(', ')} is not this sangam's (an older install, or another copy's path): run sangam install-hooks`,
    )
  }
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
    if (!hostUnseen)
      notes.push(
        `${name} is installed (${hook.installedIn.join(', ')}) but has never been seen firing${hint}`,
      )
  } else if (hook.lastSeen.outcome.startsWith('fail-open')) {
    notes.push(`${name} last ran at ${hook.lastSeen.at} and could not decide: ${hook.lastSeen.outcome}`)
  }
  return notes
}

function hostName(host: HookHealth['host']): string {
  return host === 'git' ? 'git' : vendorFor(host).displayName
}

/** Whether `file` holds exactly the group a current install puts there for `event`. */
function current(candidate: HookFile, event: string): boolean {
  const group = candidate.groups?.[event]
  if (group === undefined) return true
  try {
    const config = readJsonObject(candidate.file)
    return !addOurGroups(config, { [event]: group }, isOurAgentHandler, candidate.file).changed
  } catch {
    return false
  }
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
  input: Pick<HookHealthInput, 'root' | 'codexBin' | 'timeoutMs'>,
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
    const where =
      hook.installedIn.length === 0
        ? 'not installed'
        : hook.outdatedIn.length > 0
          ? 'installed, outdated'
          : 'installed'
    const trust = hook.trust === null ? '' : `, ${hook.trust}`
    const seen =
      hook.lastSeen === null
        ? 'never seen firing'
        : `last fired ${hook.lastSeen.at}${hook.lastSeen.hostVersion ? ` (${hook.lastSeen.hostVersion})` : ''}: ${hook.lastSeen.outcome}, ${hook.lastSeen.durationMs} ms`
    lines.push(`  ${`${hostName(hook.host)} ${hook.event}`.padEnd(26)} ${where}${trust}; ${seen}`)
  }
  const { guard } = section
  lines.push(
    guard.mainBranch === null
      ? `  ${'main guard'.padEnd(26)} not armed (sangam init --guard, or sangam lane, protects main)`
      : `  ${'main guard'.padEnd(26)} protects '${guard.mainBranch}': ${guard.installed.length} of 6 hooks installed${guard.missing.length > 0 ? `, missing ${guard.missing.join(', ')}` : ''}`,
  )
  return [...lines, ...section.notes.map((note) => `  note: ${note}`)]
}
