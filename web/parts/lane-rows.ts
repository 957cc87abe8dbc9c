import type { LaneLock } from '../api/shapes.ts'
import { html, type View } from '../html.ts'
import { When } from './when.ts'

/** One managed lane as both the Lanes page (`/api/lanes`) and the Board page (`/api/board`) show it. */
export type LaneLine = {
  name: string
  state: string
  owner: string
  agent: string | null
  dirty: boolean
  behind: number
  task: string | null
  next: string
  /** The task's file, on hover (only `/api/lanes` carries it). */
  taskFile?: string | undefined
  /** The lane's commit (only `/api/lanes`); the column shows only when some lane has it. */
  head?: string | null | undefined
  worktree?: string | undefined
}

/** The lanes as a table: name and owner, state (and dirty), agent, behind, task, next step. */
export function LaneTable(props: { lanes: LaneLine[]; testid: string; head?: boolean }): View {
  const head = props.head === true
  return html`<table data-testid=${props.testid}>
    <thead><tr><th scope="col">Lane</th><th scope="col">State</th><th scope="col">Agent</th>${head ? html`<th scope="col">Head</th>` : null}<th scope="col">Behind</th><th scope="col">Task</th><th scope="col">Next</th></tr></thead>
    <tbody>${props.lanes.map(
      (lane) => html`<tr data-row tabindex="-1">
        <th scope="row" title=${lane.worktree}>${lane.name} <span class="muted">${lane.owner}</span></th>
        <td class=${stateClass(lane)}>${lane.state}${lane.dirty && lane.state !== 'dirty' ? ' (dirty)' : ''}</td>
        <td>${lane.agent ?? html`<span class="muted">human</span>`}</td>
        ${head ? html`<td class="mono">${shortCommit(lane.head)}</td>` : null}
        <td>${lane.behind > 0 ? html`<span class="warn">${lane.behind}</span>` : '0'}</td>
        <td>${lane.task ? html`<span class="mono task-id" title=${lane.taskFile}>${lane.task}</span>` : '—'}</td>
        <td>${lane.next}</td>
      </tr>`,
    )}</tbody>
  </table>`
}

/** The integration lock: free, or who holds it for which task since when; stale with the takeover hint. */
export function LockNote(props: { lock: LaneLock | null; now: number; lead?: string }): View {
  const { lock, now } = props
  const lead = props.lead ? html`<span class="muted">${props.lead}</span> ` : null
  if (!lock) return html`<p class="muted" data-testid="no-lock">${lead}Free: nobody is integrating.</p>`
  return html`<p data-testid="lock">${lead}<strong>${lock.lane}</strong> (${lock.owner}) holds it since <${When} at=${lock.since} now=${now} />${lock.task ? html`, task <span class="mono">${lock.task}</span>` : null}; last sign of life <${When} at=${lock.heartbeatAt} now=${now} />.</p>${lock.stale ? html`<p class="warn" data-testid="lock-stale">Stale: silent past <code>lanes.lock-stale-minutes</code>, so a human may take it over with <code>sangam sync --takeover --reason "…"</code>.</p>` : null}`
}

/** Why the lanes could not be read, as a muted note (the rest of the page still shows). */
export function LanesErrorNote(props: { error: { code?: string; message?: string } | null }): View | null {
  if (!props.error) return null
  return html`<p class="muted" data-testid="lanes-error">Lanes could not be read: ${props.error.message ?? props.error.code}</p>`
}

export function shortCommit(commit: string | null | undefined): string {
  return commit ? commit.slice(0, 10) : '—'
}

function stateClass(lane: LaneLine): string {
  if (lane.state === 'missing') return 'bad'
  if (lane.state === 'task' || lane.state === 'integrating' || lane.behind > 0) return 'warn'
  return 'ok'
}
