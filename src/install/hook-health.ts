import { vendorFor } from '../agents/vendors.ts'
import type { Heartbeat } from '../hooks/hook-heartbeat.ts'
import type { GuardState } from '../lanes/services/guard-state.ts'
import type { DoctorSection } from '../memory/services/capture-report.ts'
import type { HookEntries } from '../own-files/services/hook-entries.ts'

/** One hook of one host as `sangam doctor` reports it (hooks-section.ts builds them). */
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

/** sangam's agent hook events, in Claude Code's names. */
export const agentEvents = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'Stop', 'SessionEnd'] as const

/** The host as doctor names it: the vendor's display name, or git. */
export function hostName(host: HookHealth['host']): string {
  return host === 'git' ? 'git' : vendorFor(host).displayName
}

/** The newest heartbeat of `host`'s `event`, or null when it has never been seen firing. */
export function lastSeen(beats: readonly Heartbeat[], host: string, event: string): HookHealth['lastSeen'] {
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
