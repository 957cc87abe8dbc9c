import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'smol-toml'
import { isRecord } from '../shared/is-record.ts'

/**
 * The sandbox Codex runs a resumed turn under (`codex exec resume` takes no flag from sangam,
 * D211), read from `$CODEX_HOME/config.toml` as Codex reads it: the selected profile's
 * `sandbox_mode` (top-level `profile = "<name>"`, table `[profiles.<name>]`), else the top-level
 * `sandbox_mode`, else Codex's default, read-only. `-c` overrides and project-level config files
 * are not seen.
 */
export type CodexSandbox =
  | { readonly kind: 'mode'; readonly mode: string; readonly source: string }
  | { readonly kind: 'default'; readonly file: string }
  | { readonly kind: 'unreadable'; readonly file: string; readonly reason: string }

export function codexSandbox(codexHome: string): CodexSandbox {
  const file = join(codexHome, 'config.toml')
  if (!existsSync(file)) return { kind: 'default', file }
  let config: unknown
  try {
    config = parse(readFileSync(file, 'utf8'))
  } catch (error) {
    const reason = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error)
    return { kind: 'unreadable', file, reason }
  }
  if (!isRecord(config)) return { kind: 'default', file }
  const profileName = config.profile
  const profiles = config.profiles
  if (typeof profileName === 'string' && isRecord(profiles)) {
    const profile = profiles[profileName]
    if (isRecord(profile) && typeof profile.sandbox_mode === 'string')
      return { kind: 'mode', mode: profile.sandbox_mode, source: `${file} [profiles.${profileName}]` }
  }
  if (typeof config.sandbox_mode === 'string')
    return { kind: 'mode', mode: config.sandbox_mode, source: file }
  return { kind: 'default', file }
}

/** Whether a lane's agent command is Codex (`codex`, or a command line that runs it). */
export function runsCodex(agent: string | null): boolean {
  return agent !== null && /^(?:\S*\/)?codex(?:\s|$)/.test(agent.trim())
}

/**
 * The warning for a lane whose Codex cannot commit a semantic task: any sandbox but
 * `danger-full-access` keeps the lane's git directory (`.git/worktrees/<lane>`) read-only, so
 * the task is delivered, the turn ends, and the next sync refuses it (D211, D225). Null when Codex
 * runs unsandboxed or the lane's agent is not Codex.
 */
export function laneSandboxWarning(agent: string | null, codexHome: string): string | null {
  if (!runsCodex(agent)) return null
  const sandbox = codexSandbox(codexHome)
  if (sandbox.kind === 'mode' && sandbox.mode === 'danger-full-access') return null
  const file = join(codexHome, 'config.toml')
  const setting =
    sandbox.kind === 'mode'
      ? `sandbox_mode = ${JSON.stringify(sandbox.mode)} (${sandbox.source})`
      : sandbox.kind === 'default'
        ? `no sandbox_mode in ${file} (Codex's default: read-only)`
        : `${file} is not valid TOML (${sandbox.reason})`
  return `this lane's Codex cannot commit a semantic task: it resumes turns under ${setting}, which keeps the lane's git directory read-only, so sync would refuse the task (task-dirty or task-no-candidate); set sandbox_mode = "danger-full-access" in ${file} while this project uses lanes, or run each task by hand`
}
