import { useState } from 'preact/hooks'
import { closeThread, loadBoard, loadThreads, openThread } from '../api/endpoints.ts'
import type { Board, BoardColumn, Card, Thread } from '../api/shapes.ts'
import { html, type View } from '../html.ts'
import { useLive } from '../live/use-live.ts'
import { ErrorNote, Loading } from '../parts/error-note.ts'
import { LanesErrorNote, LaneTable, LockNote } from '../parts/lane-rows.ts'
import { useNow } from '../parts/use-now.ts'
import { When } from '../parts/when.ts'

const columns: { id: BoardColumn; title: string; hint: string }[] = [
  { id: 'blocked', title: 'Blocked', hint: 'waiting on a human' },
  { id: 'doing', title: 'Doing', hint: 'someone working on it' },
  { id: 'backlog', title: 'Backlog', hint: 'open, nobody working on it' },
  { id: 'done', title: 'Done', hint: 'closed' },
]

/** The board derived from the threads, the open threads themselves, and a form to open one. */
export function BoardPage(): View {
  const now = useNow()
  const board = useLive(loadBoard, ['board', 'threads', 'presence', 'lanes'], 'board')
  const threads = useLive(() => loadThreads(false), ['threads', 'board'], 'threads')
  const [closing, setClosing] = useState<string | null>(null)
  const [actionError, setActionError] = useState<Error | null>(null)

  const close = async (id: string) => {
    setClosing(id)
    setActionError(null)
    try {
      await closeThread(id)
      board.reload()
      threads.reload()
    } catch (error) {
      setActionError(error as Error)
    } finally {
      setClosing(null)
    }
  }

  return html`<section aria-labelledby="page-title">
    <h1 id="page-title" tabindex="-1">Board</h1>
    <p class="muted">Derived from the room's threads each time it is read; never stored.</p>
    <${Loading} when=${board.loading && !board.data} />
    <${ErrorNote} error=${board.error} />
    ${
      board.data?.collisions?.note
        ? html`<p class="muted" data-testid="collisions-note">Collisions: ${board.data.collisions.note}</p>`
        : null
    }
    ${
      board.data
        ? html`<div class="board" data-testid="board">
            ${columns.map((column) => html`<${Column} column=${column} cards=${board.data?.columns[column.id] ?? []} />`)}
          </div>`
        : null
    }
    ${board.data ? html`<${BoardLanes} board=${board.data} now=${now} />` : null}
    <h2>Open threads</h2>
    <${ErrorNote} error=${threads.error ?? actionError} />
    ${
      threads.data && threads.data.length === 0
        ? html`<p class="empty">No open threads. Open one below, or with <code>sangam thread-open --title "…"</code>.</p>`
        : null
    }
    <ul class="threads" data-testid="threads">
      ${(threads.data ?? []).map(
        (thread) =>
          html`<${ThreadRow} thread=${thread} now=${now} busy=${closing === thread.id} onClose=${() => close(thread.id)} />`,
      )}
    </ul>
    <${OpenThreadForm} onOpened=${() => {
      board.reload()
      threads.reload()
    }} />
  </section>`
}

function Column(props: { column: { id: BoardColumn; title: string; hint: string }; cards: Card[] }): View {
  const { column, cards } = props
  return html`<section class=${`column column-${column.id}`} aria-labelledby=${`col-${column.id}`} data-testid=${`column-${column.id}`}>
    <h2 id=${`col-${column.id}`}>${column.title} <span class="count-pill">${cards.length}</span></h2>
    <p class="muted hint">${column.hint}</p>
    ${cards.length === 0 ? html`<p class="muted empty-col">—</p>` : null}
    <ul>
      ${cards.map(
        (card) => html`<li class="card" data-row tabindex="-1">
          <div class="card-title">${card.title}</div>
          <div class="muted">${card.detail}</div>
          ${card.owners.length > 0 ? html`<div class="owners">${card.owners.join(' ')}</div>` : null}
        </li>`,
      )}
    </ul>
  </section>`
}

/** The lanes under the columns (as `sangam board` prints them): the lock line, one row per lane. */
function BoardLanes(props: { board: Board; now: number }): View | null {
  const { lanes, lock, lanesError } = props.board
  if (lanes.length === 0 && lock === null) return html`<${LanesErrorNote} error=${lanesError} />`
  return html`<section aria-labelledby="board-lanes-title" data-testid="board-lanes">
    <h2 id="board-lanes-title">Lanes <span class="count-pill">${lanes.length}</span> <a class="heading-link" href="#/lanes">what merges →</a></h2>
    <${LanesErrorNote} error=${lanesError} />
    <${LockNote} lock=${lock} now=${props.now} lead="Integration lock:" />
    ${lanes.length > 0 ? html`<${LaneTable} testid="board-lane-rows" lanes=${lanes} />` : null}
  </section>`
}

function ThreadRow(props: { thread: Thread; now: number; busy: boolean; onClose: () => void }): View {
  const { thread } = props
  return html`<li class="thread" data-row tabindex="-1" data-thread-id=${thread.id}>
    <div>
      <strong>${thread.title}</strong>
      ${thread.audience === 'human-loop' ? html` <span class="tag tag-blocked">needs a human</span>` : null}
      ${thread.reason ? html`<div>${thread.reason}</div>` : null}
      <div class="muted">
        ${thread.participants.join(', ')} · opened by ${thread.source} · <${When} at=${thread.updatedAt} now=${props.now} />
        ${thread.paths.length > 0 ? html` · <span class="mono">${thread.paths.join(' ')}</span>` : null}
      </div>
    </div>
    <div class="actions">
      <a href=${`#/room?thread=${encodeURIComponent(thread.id)}`}>Messages</a>
      <button type="button" onClick=${props.onClose} disabled=${props.busy} aria-label=${`Close thread ${thread.title}`}>${props.busy ? 'Closing…' : 'Close'}</button>
    </div>
  </li>`
}

function OpenThreadForm(props: { onOpened: () => void }): View {
  const [title, setTitle] = useState('')
  const [kind, setKind] = useState('agents')
  const [text, setText] = useState('')
  const [error, setError] = useState<Error | null>(null)
  const [busy, setBusy] = useState(false)
  const submit = async (event: Event) => {
    event.preventDefault()
    if (!title.trim()) return
    setBusy(true)
    setError(null)
    try {
      await openThread({ title: title.trim(), audience: kind, reason: text.trim() })
      setTitle('')
      setText('')
      props.onOpened()
    } catch (failure) {
      setError(failure as Error)
    } finally {
      setBusy(false)
    }
  }
  return html`<form class="panel" onSubmit=${submit} aria-labelledby="open-thread-title">
    <h2 id="open-thread-title">Open a thread</h2>
    <div class="row">
      <label>Title <input name="title" value=${title} onInput=${(event: InputEvent) => setTitle((event.currentTarget as HTMLInputElement).value)} required maxlength="200" /></label>
      <label>Audience
        <select name="kind" value=${kind} onChange=${(event: Event) => setKind((event.currentTarget as HTMLSelectElement).value)}>
          <option value="agents">agents</option>
          <option value="human-loop">human-loop (blocks until closed)</option>
        </select>
      </label>
    </div>
    <label>Why (optional) <input name="text" value=${text} onInput=${(event: InputEvent) => setText((event.currentTarget as HTMLInputElement).value)} /></label>
    <${ErrorNote} error=${error} />
    <button type="submit" disabled=${busy}>${busy ? 'Opening…' : 'Open thread'}</button>
  </form>`
}
