import { hookEntries } from '../../../install/hook-entries.ts'
import {
  type HookInstallOptions,
  type HookInstallReport,
  type HookUninstallReport,
  installHooks,
  uninstallHooks,
} from '../../../install/hook-installer.ts'
import { openProject } from '../../../services/project-context.ts'
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
  lines.push(`git push     ${report.git.change.padEnd(9)} ${report.git.file}`)
  if (report.git.chained) lines.push(`             then runs your own hook, now at ${report.git.chained}`)
  if (report.guard !== null) lines.push(...guardLines(report.guard))
  lines.push('Run `sangam doctor` after your next agent session to see the hooks firing.')
  return lines.join('\n')
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
  return lines.join('\n')
}
