import { type HooksSection, hostName } from './hook-health.ts'

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
