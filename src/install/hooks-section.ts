import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { claudeGroups, claudeProjectEntry } from '../agents/claude/install/claude-hook-groups.ts'
import { codexGroups } from '../agents/codex/install/codex-hook-groups.ts'
import { geminiEventFor } from '../agents/gemini/core/gemini-hook-events.ts'
import { geminiGroups } from '../agents/gemini/install/gemini-hook-groups.ts'
import { usesOpencode } from '../agents/opencode/install/opencode-plugin.ts'
import { readHeartbeats } from '../hooks/hook-heartbeat.ts'
import { readGuardState } from '../lanes/services/guard-state.ts'
import { codexTrust } from './codex-hook-trust.ts'
import { type HookFile, installedIn, opencodeHooks, prePushFiles } from './hook-files.ts'
import {
  agentEvents,
  type HookHealth,
  type HookHealthInput,
  type HooksSection,
  lastSeen,
} from './hook-health.ts'
import { agentRow, type HookRow, notesOf } from './hook-notes.ts'

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
