import type { MainGuardReport } from '../../../install/main-guard-installer.ts'

/** What installing the main guard did, for the terminal (`init`, `install-hooks`). */
export function guardLines(report: MainGuardReport): string[] {
  const lines = [`main guard   protects '${report.mainBranch}' (armed by ${report.armedBy})`]
  for (const hook of report.hooks) {
    lines.push(`             ${hook.hook.padEnd(22)} ${hook.change}`)
    if (hook.chained)
      lines.push(`             ${''.padEnd(22)} then runs your own hook, now at ${hook.chained}`)
  }
  return lines
}
