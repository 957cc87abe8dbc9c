import { loadLanes } from '../api/endpoints.ts'
import type { Lanes, Ready, ReadyBranch } from '../api/shapes.ts'
import { html, type View } from '../html.ts'
import { useLive } from '../live/use-live.ts'
import { ErrorNote, Loading } from '../parts/error-note.ts'
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
    ${
      data
        ? html`<h2>Lanes</h2>
          ${
            data.lanes.length === 0
              ? html`<p class="empty" data-testid="no-lanes">No managed lanes yet. <code>${'sangam lane <name>'}</code> creates one: a worktree and branch for one agent, integrated into the main branch by <code>sangam sync</code> under the integration lock.</p>`
              : html`<${LooseTable} rows=${data.lanes} now=${now} testid="lanes" />`
          }
          <h2>Integration lock</h2>
          ${data.lock ? html`<${LooseFields} value=${data.lock} now=${now} />` : html`<p class="muted" data-testid="no-lock">Free: nobody is integrating.</p>`}
          ${data.publishes.length > 0 ? html`<h2>Recent publishes</h2><${LooseTable} rows=${data.publishes} now=${now} testid="publishes" />` : null}`
        : null
    }
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
                <th scope="row" title=${row.worktree}>${label(row)}${row.uncommitted > 0 ? html` <span class="muted">(${row.uncommitted} uncommitted)</span>` : null}</th>
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
  const pairs: { a: ReadyBranch; b: string; paths: string[] }[] = []
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

/** A table of records whose fields the integration feature defines (shown as they come). */
function LooseTable(props: { rows: Record<string, unknown>[]; now: number; testid: string }): View {
  const columns = [...new Set(props.rows.flatMap((row) => Object.keys(row)))].slice(0, 7)
  return html`<table data-testid=${props.testid}>
    <thead><tr>${columns.map((column) => html`<th scope="col">${column}</th>`)}</tr></thead>
    <tbody>${props.rows.map((row) => html`<tr data-row tabindex="-1">${columns.map((column) => html`<td>${show(row[column], column, props.now)}</td>`)}</tr>`)}</tbody>
  </table>`
}

function LooseFields(props: { value: Record<string, unknown>; now: number }): View {
  return html`<dl class="fields" data-testid="lock">
    ${Object.entries(props.value).map(([name, value]) => html`<dt>${name}</dt><dd>${show(value, name, props.now)}</dd>`)}
  </dl>`
}

function show(value: unknown, name: string, now: number): View | string {
  if (value === null || value === undefined) return '—'
  if (typeof value === 'number' && /At$|^at$|since/i.test(name) && value > 1e12)
    return html`<${When} at=${value} now=${now} />`
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}
