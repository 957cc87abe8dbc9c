import { loadLanes } from '../api/endpoints.ts'
import type { LaneRow, Lanes, Ready, ReadyBranch } from '../api/shapes.ts'
import { html, type View } from '../html.ts'
import { useLive } from '../live/use-live.ts'
import { ErrorNote, Loading } from '../parts/error-note.ts'
import { type LaneLine, LanesErrorNote, LaneTable, LockNote, shortCommit } from '../parts/lane-rows.ts'
import { baseName } from '../parts/place.ts'
import { useNow } from '../parts/use-now.ts'
import { When } from '../parts/when.ts'

/** Which branches merge, which collide with which on which files; lanes, the lock, publishes. */
export function LanesPage(): View {
  const now = useNow()
  const lanes = useLive(loadLanes, ['lanes', 'presence', 'events'], 'lanes')
  const data = lanes.data
  return html`<section aria-labelledby="page-title">
    <h1 id="page-title" tabindex="-1">Lanes</h1>
    <${Loading} when=${lanes.loading && !data} />
    <${ErrorNote} error=${lanes.error} />
    ${data ? html`<${ReadyView} ready=${data.ready} error=${data.readyError} />` : null}
    ${data ? html`<${LaneList} data=${data} now=${now} />` : null}
  </section>`
}

function ReadyView(props: { ready: Ready | null; error: Lanes['readyError'] }): View {
  const { ready } = props
  if (!ready) {
    const why = typeof props.error === 'string' ? props.error : (props.error?.message ?? null)
    return html`<p class="empty" data-testid="no-ready">Which branches merge is not known yet${why ? html`: ${why}` : '.'}</p>`
  }
  const lanes = ready.branches
  return html`<section aria-labelledby="ready-title" data-testid="ready">
    <h2 id="ready-title">Into <span class="branch">${ready.into}</span></h2>
    <p class="summary">
      <span class="count ok">${ready.clean} clean</span>
      <span class="count warn">${ready.latent} colliding</span>
      <span class="count bad">${ready.conflicted} conflicted</span>
      ${ready.complete ? null : html`<span class="muted"> (incomplete: a worktree shares no history with ${ready.into})</span>`}
    </p>
    ${
      lanes.length === 0
        ? html`<p class="empty">Only the main worktree: add one with <code>git worktree add</code> (or <code>sangam lane</code>) to see what merges.</p>`
        : html`<div class="matrix-wrap"><table class="matrix" data-testid="ready-matrix">
          <caption class="muted">Each row: does this branch merge into ${ready.into}, and with which other branches would it conflict (files on hover).</caption>
          <thead><tr><th scope="col">Branch</th><th scope="col">into ${ready.into}</th>${lanes.map((lane) => html`<th scope="col" class="rot" title=${lane.worktree}>${label(lane)}</th>`)}</tr></thead>
          <tbody>
            ${lanes.map(
              (row) => html`<tr data-row tabindex="-1">
                <th scope="row" title=${row.worktree}>${label(row)}${(row.uncommitted ?? 0) > 0 ? html` <span class="muted">(${row.uncommitted} uncommitted)</span>` : null}</th>
                <td class=${verdictClass(row)}>${verdict(row)}</td>
                ${lanes.map((column) => html`<${Cell} row=${row} column=${column} />`)}
              </tr>`,
            )}
          </tbody>
        </table></div>
        <${Collisions} lanes=${lanes} />`
    }
  </section>`
}

function Cell(props: { row: ReadyBranch; column: ReadyBranch }): View {
  if (props.row.worktree === props.column.worktree)
    return html`<td class="self" aria-label="same branch">·</td>`
  const hit = props.row.collidesWith.find((other) => other.worktree === props.column.worktree)
  if (!hit) return html`<td class="ok" aria-label="no collision">✓</td>`
  return html`<td class="warn" title=${hit.paths.join('\n')}>✕ ${hit.paths.length} ${hit.paths.length === 1 ? 'file' : 'files'}</td>`
}

function Collisions(props: { lanes: ReadyBranch[] }): View {
  const seen = new Set<string>()
  const pairs: { a: ReadyBranch; b: string; paths: readonly string[] }[] = []
  for (const lane of props.lanes)
    for (const other of lane.collidesWith) {
      const key = [lane.worktree, other.worktree].sort().join('\0')
      if (seen.has(key)) continue
      seen.add(key)
      pairs.push({ a: lane, b: other.branch ?? baseName(other.worktree), paths: other.paths })
    }
  const conflicted = props.lanes.filter((lane) => !lane.mergesCleanly && lane.conflicts.length > 0)
  if (pairs.length === 0 && conflicted.length === 0) return html`<p class="ok">No two branches collide.</p>`
  return html`<ul class="collisions" data-testid="collisions">
    ${conflicted.map((lane) => html`<li><strong>${label(lane)}</strong> conflicts with the target on <span class="mono">${lane.conflicts.join(', ')}</span></li>`)}
    ${pairs.map((pair) => html`<li><strong>${label(pair.a)}</strong> and <strong>${pair.b}</strong> collide on <span class="mono">${pair.paths.join(', ')}</span></li>`)}
  </ul>`
}

function label(lane: ReadyBranch): string {
  return lane.branch ?? `${baseName(lane.worktree)} (detached)`
}

function verdict(lane: ReadyBranch): string {
  if (lane.skipped) return `skipped: ${lane.skipped}`
  if (!lane.mergesCleanly) return 'conflicts'
  return lane.collidesWith.length > 0 ? 'merges, collides' : 'merges'
}

function verdictClass(lane: ReadyBranch): string {
  if (lane.skipped) return 'muted'
  if (!lane.mergesCleanly) return 'bad'
  return lane.collidesWith.length > 0 ? 'warn' : 'ok'
}

/** The managed lanes, the integration lock and the latest publishes (`sangam status`, `sangam log`). */
function LaneList(props: { data: Lanes; now: number }): View {
  const { data, now } = props
  return html`<h2>Lanes${data.main ? html` <span class="muted">into <span class="branch">${data.main.branch}</span> at <span class="mono">${shortCommit(data.main.commit)}</span></span>` : null}</h2>
    <${LanesErrorNote} error=${data.lanesError} />
    ${
      data.lanes.length === 0
        ? html`<p class="empty" data-testid="no-lanes">No managed lanes yet. <code>${'sangam lane <name>'}</code> creates one: a worktree and branch for one agent, integrated into the main branch by <code>sangam sync</code> under the integration lock.</p>`
        : html`<${LaneTable} testid="lanes" head=${true} lanes=${data.lanes.map(laneLine)} />`
    }
    <h2>Integration lock</h2>
    <${LockNote} lock=${data.lock} now=${now} />
    ${data.guard && !data.guard.installed && data.lanes.length > 0 ? html`<p class="warn" data-testid="guard">The main guard is not armed: ${data.guard.missing.join(', ')} missing (<code>sangam init --guard</code>).</p>` : null}
    ${
      data.publishes.length > 0
        ? html`<h2>Recent publishes</h2>
          <table data-testid="publishes">
            <thead><tr><th scope="col">When</th><th scope="col">Lane</th><th scope="col">Machine</th><th scope="col">How</th><th scope="col">Main</th></tr></thead>
            <tbody>${data.publishes.map(
              (entry) => html`<tr data-row tabindex="-1">
                <td><${When} at=${entry.at} now=${now} /></td>
                <td>${entry.lane ?? '—'}</td>
                <td>${entry.machineName ?? '—'}</td>
                <td>${entry.type.replace(/^sync\.published-/, '')}</td>
                <td class="mono">${shortCommit(entry.payload.main ?? null)}</td>
              </tr>`,
            )}</tbody>
          </table>`
        : null
    }`
}

function laneLine(lane: LaneRow): LaneLine {
  return { ...lane, task: lane.task?.id ?? null, taskFile: lane.task?.file }
}
