import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'smol-toml'
import { runGit } from '../../../git/git.ts'
import { isRecord } from '../../../shared/is-record.ts'

/**
 * The sandbox Codex runs a resumed turn under (`codex exec resume` takes no flag from sangam,
 * D211), read as Codex layers its config (D306): the selected profile's `sandbox_mode` (top-level
 * `profile = "<name>"`, table `[profiles.<name>]`), else the lane's own project layer
 * (`<lane>/.codex/config.toml`, which Codex reads only for a folder the user's config trusts:
 * `[projects."<lane>"] trust_level = "trusted"`), else the top-level `sandbox_mode` of
 * `$CODEX_HOME/config.toml`, else Codex's default, read-only. `-c` overrides are not seen (a
 * resumed turn gets none), and `[projects."<path>"]` holds trust only, never a sandbox.
 */
export type CodexSandbox =
  | { readonly kind: 'mode'; readonly mode: string; readonly source: string }
  | { readonly kind: 'default'; readonly file: string }
  | { readonly kind: 'unreadable'; readonly file: string; readonly reason: string }

export function codexSandbox(codexHome: string, lane: string | null = null): CodexSandbox {
  const file = join(codexHome, 'config.toml')
  const user = readToml(file)
  if (user.kind === 'unreadable') return user
  const config = user.kind === 'read' ? user.value : {}
  const profileName = config.profile
  const profiles = config.profiles
  if (typeof profileName === 'string' && isRecord(profiles)) {
    const profile = profiles[profileName]
    if (isRecord(profile) && typeof profile.sandbox_mode === 'string')
      return { kind: 'mode', mode: profile.sandbox_mode, source: `${file} [profiles.${profileName}]` }
  }
  if (lane !== null && trusts(config, lane)) {
    const projectFile = join(lane, '.codex', 'config.toml')
    const project = readToml(projectFile)
    if (project.kind === 'unreadable') return project
    if (project.kind === 'read' && typeof project.value.sandbox_mode === 'string')
      return { kind: 'mode', mode: project.value.sandbox_mode, source: projectFile }
  }
  if (typeof config.sandbox_mode === 'string')
    return { kind: 'mode', mode: config.sandbox_mode, source: file }
  return { kind: 'default', file }
}

type TomlRead =
  | { readonly kind: 'read'; readonly value: Record<string, unknown> }
  | { readonly kind: 'absent' }
  | { readonly kind: 'unreadable'; readonly file: string; readonly reason: string }

function readToml(file: string): TomlRead {
  if (!existsSync(file)) return { kind: 'absent' }
  try {
    const value = parse(readFileSync(file, 'utf8'))
    return isRecord(value) ? { kind: 'read', value } : { kind: 'absent' }
  } catch (error) {
    const reason = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error)
    return { kind: 'unreadable', file, reason }
  }
}

/** Whether the user's config trusts `folder` (`[projects."<folder>"] trust_level = "trusted"`). */
function trusts(config: Record<string, unknown>, folder: string): boolean {
  const projects = config.projects
  if (!isRecord(projects)) return false
  const entry = projects[folder]
  return isRecord(entry) && entry.trust_level === 'trusted'
}

/** Whether a lane's agent command is Codex (`codex`, or a command line that runs it). */
export function runsCodex(agent: string | null): boolean {
  return agent !== null && /^(?:\S*\/)?codex(?:\s|$)/.test(agent.trim())
}

/**
 * The warning for a lane whose Codex cannot commit a semantic task: any sandbox but
 * `danger-full-access` keeps the lane's git directory (`.git/worktrees/<lane>`) read-only, so
 * the task is delivered, the turn ends, and the next sync refuses it (D211, D225). It offers the
 * narrowest setting that works first (D306): `danger-full-access` for this lane's folder alone,
 * through its own `.codex/config.toml` (kept out of git), unless the project tracks that file;
 * then the user's whole config; then doing tasks by hand. Null when Codex runs unsandboxed or the
 * lane's agent is not Codex.
 */
export function laneSandboxWarning(
  agent: string | null,
  codexHome: string,
  lane: string | null = null,
): string | null {
  if (!runsCodex(agent)) return null
  const sandbox = codexSandbox(codexHome, lane)
  if (sandbox.kind === 'mode' && sandbox.mode === 'danger-full-access') return null
  const file = join(codexHome, 'config.toml')
  const setting =
    sandbox.kind === 'mode'
      ? `sandbox_mode = ${JSON.stringify(sandbox.mode)} (${sandbox.source})`
      : sandbox.kind === 'default'
        ? `no sandbox_mode in ${file} (Codex's default: read-only)`
        : `${sandbox.file} is not valid TOML (${sandbox.reason})`
  const laneOnly = lane === null ? null : laneOnlySetting(lane, file, trustsFolder(file, lane))
  return `this lane's Codex cannot commit a semantic task: it resumes turns under ${setting}, which keeps the lane's git directory read-only, so sync would refuse the task (task-dirty or task-no-candidate); ${laneOnly === null ? '' : `${laneOnly}; or `}set sandbox_mode = "danger-full-access" in ${file} (every Codex session) while this project uses lanes, or run each task by hand`
}

/**
 * This lane alone: its own project layer, which Codex reads once it trusts the folder, kept out of
 * git (`info/exclude` is the repository's, shared by every worktree). Null when the project tracks
 * `.codex/config.toml`: a lane's own would be a change to publish.
 */
function laneOnlySetting(lane: string, userFile: string, trusted: boolean): string | null {
  if (runGit(['ls-files', '--', '.codex/config.toml'], lane).stdout.trim() !== '') return null
  const common = runGit(['rev-parse', '--path-format=absolute', '--git-common-dir'], lane)
  const exclude = common.code === 0 ? join(common.stdout.trim(), 'info', 'exclude') : '.git/info/exclude'
  const setting = `for this lane alone, put sandbox_mode = "danger-full-access" in ${join(lane, '.codex', 'config.toml')} and add the line /.codex/config.toml to ${exclude} so it stays out of git`
  // Said only when missing: Codex reads a project's .codex/ layer only for a folder it trusts.
  return trusted
    ? setting
    : `${setting}, and trust the folder (Codex reads a project's .codex/config.toml only then: [projects.${JSON.stringify(lane)}] trust_level = "trusted" in ${userFile}, what its trust prompt writes)`
}

/** Whether the user's config (read again; it may not parse) trusts `folder`. */
function trustsFolder(file: string, folder: string): boolean {
  const user = readToml(file)
  return user.kind === 'read' && trusts(user.value, folder)
}
