import { vendorFor } from '../agents/vendors.ts'
import type { VendorName } from '../shared/vendor-names.ts'
import { type HookHealth, hostName } from './hook-health.ts'

/** A row of the section, with what its notes say: its name, why it may not have fired yet. */
export interface HookRow {
  readonly hook: HookHealth
  readonly name: string
  readonly hint: string
  /** Whether its absence is a fault to fix (install-hooks would have put it there). */
  readonly absentIsFault: boolean
}

/** An agent host's row; `event` in sangam's terms, as the vendor's hint takes it. */
export function agentRow(hook: HookHealth & { readonly host: VendorName }, event: string): HookRow {
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
export function notesOf(rows: readonly HookRow[]): string[] {
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
