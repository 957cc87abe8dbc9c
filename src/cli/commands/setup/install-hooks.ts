import { basename } from 'node:path'
import {
  type HookInstallOptions,
  type HookInstallReport,
  type HookUninstallReport,
  installHooks,
  uninstallHooks,
} from '../../../install/hook-installer.ts'
import { hookEntries } from '../../../own-files/services/hook-entries.ts'
import { openProject } from '../../../project/services/open-project.ts'
import type { CommandRun } from '../../command.ts'
import { guardLines } from './guard-lines.ts'
import type { installHooksInput } from './inputs.ts'

export const run: CommandRun<typeof installHooksInput> = async (ctx, _args, flags) => {
  // Hooks read the project's database, so installing them records the project (as `init` does).
  const project = openProject(ctx.env, ctx.cwd, ctx.clock)
  project.close()
  const options: HookInstallOptions = {
    root: project.repo.root,
    commonDir: project.repo.commonDir,
    claudeConfigDir: ctx.env.claudeConfigDir,
    codexHome: ctx.env.codexHome,
    geminiDir: ctx.env.geminiDir,
    opencodeConfigDir: ctx.env.opencodeConfigDir,
    entries: hookEntries(ctx.cliEntry),
    user: flags.user,
    codexBin: 'codex',
    codexTimeoutMs: 30_000,
  }
  if (flags.uninstall) {
    const report = uninstallHooks(options)
    return {
      json: { projectId: project.repo.projectId, action: 'uninstall', ...report },
      text: uninstallText(report),
    }
  }
  const report = await installHooks(options)
  return {
    json: { projectId: project.repo.projectId, action: 'install', ...report },
    text: installText(report),
  }
}

function installText(report: HookInstallReport): string {
  const { codex } = report
  const lines = [
    `Claude Code  ${report.claude.change.padEnd(9)} ${report.claude.file} (${report.claude.level})`,
    `Codex        ${codex.change.padEnd(9)} ${codex.file} (${codex.level})`,
  ]
  if (codex.levelNote) lines.push(`             ${codex.levelNote}`)
  lines.push(`             trust: ${trustText(codex)}`)
  lines.push(`Gemini CLI   ${report.gemini.change.padEnd(9)} ${report.gemini.file} (${report.gemini.level})`)
  lines.push(
    `opencode     ${report.opencode.change.padEnd(9)} ${report.opencode.file} (${report.opencode.level})`,
  )
  lines.push(`git push     ${report.git.change.padEnd(9)} ${report.git.file}`)
  if (report.git.chained) lines.push(`             then runs your own hook, now at ${report.git.chained}`)
  if (report.guard !== null) lines.push(...guardLines(report.guard))
  lines.push(...filesText(report.files))
  const reached = report.lanes.filter((lane) =>
    lane.files.some((file) => file.change === 'added' || file.change === 'updated'),
  )
  if (reached.length > 0)
    lines.push(
      `lanes        given the hooks too: ${reached.map((lane) => basename(lane.worktree)).join(', ')}`,
    )
  for (const lane of report.lanes)
    if (lane.codexTrust?.status === 'untrusted')
      lines.push(
        `             Codex does not trust lane ${basename(lane.worktree)}'s hooks: ${lane.codexTrust.note ?? ''}`,
      )
  lines.push('Run `sangam doctor` after your next agent session to see the hooks firing.')
  return lines.join('\n')
}

/** Whether each project file may be committed: the question install-hooks leaves a user with (D312). */
function filesText(files: HookInstallReport['files']): string[] {
  const lines: string[] = []
  const excluded = files.filter((file) => file.git === 'excluded')
  const where = excluded[0]?.excludedIn
  if (excluded.length > 0 && where !== undefined && where !== null)
    lines.push(
      `not in git   ${excluded.map((file) => file.path).join(', ')}`,
      `             names this machine's paths: never commit; kept out by ${where}`,
    )
  for (const file of files.filter((entry) => entry.git === 'tracked' && entry.machinePath))
    lines.push(
      `do not commit ${file.path}: tracked, and sangam's entries name this machine's paths`,
      '             (or take them out with --uninstall and install with --user)',
    )
  for (const file of files.filter((entry) => entry.git === 'portable'))
    lines.push(`commit       ${file.path} to share the hooks (it names no machine path)`)
  return lines
}

function trustText(codex: HookInstallReport['codex']): string {
  const { trust } = codex
  const recorded =
    trust.recorded.length > 0 ? ` (${trust.recorded.length} recorded in ${trust.configFile})` : ''
  if (trust.status === 'trusted') return `trusted${recorded}`
  return `${trust.status}: ${trust.note ?? ''} — Codex skips untrusted hooks; review them with /hooks in Codex, or run install-hooks again`
}

function uninstallText(report: HookUninstallReport): string {
  const lines = [
    `Claude Code  ${report.claude.change.padEnd(9)} ${report.claude.file}`,
    `Codex        ${report.codex.change.padEnd(9)} ${report.codex.file}`,
    `Gemini CLI   ${report.gemini.change.padEnd(9)} ${report.gemini.file}`,
    `opencode     ${report.opencode.change.padEnd(9)} ${report.opencode.file}`,
    `git push     ${report.git.change.padEnd(9)} ${report.git.file}`,
  ]
  if (report.git.chained) lines.push(`             your own hook is back at ${report.git.chained}`)
  for (const hook of report.guard.hooks) {
    if (hook.hook === 'pre-push' || hook.change === 'absent') continue
    lines.push(`main guard   ${hook.change.padEnd(9)} ${hook.file}`)
    if (hook.chained) lines.push(`             your own hook is back at ${hook.chained}`)
  }
  for (const file of report.remaining)
    lines.push(`sangam hooks remain in ${file} (the other level; not touched)`)
  for (const lane of report.lanes)
    for (const file of lane.files.filter((entry) => entry.change === 'removed'))
      lines.push(`lane         removed   ${file.file}`)
  return lines.join('\n')
}
