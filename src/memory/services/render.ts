import { oneLine } from '../../shared/terminal-text.ts'
import { formatTime } from '../../shared/time-text.ts'
import { describeAge } from '../core/brief-lines.ts'
import type { SearchResult } from './search.ts'
import type { ThreadItem, ThreadResult } from './thread.ts'

/** Search hits as text: the CLI's output and the text content of `ctx_search`. */
export function renderSearch(result: SearchResult, now: number): string {
  const window = result.since === null ? 'all time' : `since ${formatTime(Date.parse(result.since), now)}`
  const terms = oneLine(result.terms.join(' '))
  if (result.hits.length === 0) return `no hits for ${terms} (${window}; since "all" searches everything)`
  const lines = [`${result.hits.length} hit${result.hits.length === 1 ? '' : 's'} for ${terms} (${window})`]
  for (const hit of result.hits) {
    const at = Date.parse(hit.at)
    // A header line holds only one-line values, whatever a transcript or a teammate put in them (D290).
    const tool = hit.toolName === null ? '' : ` ${oneLine(hit.toolName)}`
    const cli = oneLine(hit.cliVersion === null ? hit.vendor : `${hit.vendor} ${hit.cliVersion}`)
    const branch = hit.branch === null ? '' : ` · ${oneLine(hit.branch)}`
    lines.push(
      '',
      `${hit.kind}${tool} · ${formatTime(at, now)} (${describeAge(at, now)}) · ${cli} · ${oneLine(hit.author)}${branch} · ${oneLine(hit.id)}`,
      `  ${hit.snippet.replace(/\s+/g, ' ').trim()}`,
    )
  }
  return lines.join('\n')
}

/** A thread as text, the focus marked ▶: the CLI's output and the text content of `ctx_thread`. */
export function renderThread(thread: ThreadResult, now: number): string {
  const { session } = thread
  const cli = oneLine(
    session.cliVersion === null ? session.vendor : `${session.vendor} ${session.cliVersion}`,
  )
  const where = oneLine(
    [session.branch, session.cwd].filter((part) => part !== null && part !== '').join(' · '),
  )
  const lines = [
    `session ${oneLine(session.id)} · ${cli} · ${oneLine(session.author)}${where === '' ? '' : ` · ${where}`}`,
  ]
  if (thread.human === null) lines.push('', '(no human turn before this moment in the session)')
  else lines.push('', ...renderItem(thread.human, now))
  if (thread.omittedBefore > 0)
    lines.push('', `(${plural(thread.omittedBefore, 'earlier event')} of this turn not shown)`)
  for (const item of thread.items) lines.push(...renderItem(item, now))
  if (thread.omittedAfter > 0)
    lines.push('', `(${plural(thread.omittedAfter, 'later event')} of this turn not shown)`)
  return lines.join('\n')
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}

function renderItem(item: ThreadItem, now: number): string[] {
  // The focus is the one line that starts with ▶ and ends with "(focus)": easy to see and to grep.
  const marker = item.focus ? '▶ ' : ''
  const tool = item.toolName === null ? '' : ` ${oneLine(item.toolName)}`
  const subagent = item.subagent ? ' [subagent]' : ''
  const status = item.status === null ? '' : ` · ${oneLine(item.status)}`
  const focus = item.focus ? ' (focus)' : ''
  const body = item.text.split('\n').map((line) => `    ${line}`)
  return [
    `${marker}${item.kind}${tool}${subagent}${status} · ${formatTime(Date.parse(item.at), now)} · ${oneLine(item.id)}${focus}`,
    ...body,
  ]
}
