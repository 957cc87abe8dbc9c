import { loadNow } from '../api/endpoints.ts'
import type { Actor, Message, Thread } from '../api/shapes.ts'
import { html, type View } from '../html.ts'
import { useLive } from '../live/use-live.ts'
import { ErrorNote, Loading } from '../parts/error-note.ts'
import { baseName, shortMachine } from '../parts/place.ts'
import { StateBadge, VendorTag } from '../parts/state-badge.ts'
import { useNow } from '../parts/use-now.ts'
import { When } from '../parts/when.ts'

const stateOrder: Record<string, number> = { blocked: 0, online: 1, idle: 2, offline: 3 }

/** Who is doing what, what waits on a human (first), and the latest of the room. */
export function NowPage(): View {
  const now = useNow()
  const live = useLive(loadNow, ['presence', 'messages', 'threads', 'board', 'events'], 'now')
  const data = live.data
  const actors = data ? sortActors(data.actors) : []
  const counts = countStates(actors)
  return html`<section aria-labelledby="page-title">
    <h1 id="page-title" tabindex="-1">Now${data ? html` <span class="muted">· ${data.project.name}</span>` : null}</h1>
    <${Loading} when=${live.loading && !data} />
    <${ErrorNote} error=${live.error} />
    ${
      data
        ? html`
          <p class="summary" data-testid="now-summary">
            ${actors.length === 0 ? 'Nobody has been seen in this project yet.' : `${actors.length} ${actors.length === 1 ? 'actor' : 'actors'}: `}
            ${['blocked', 'online', 'idle', 'offline']
              .filter((state) => (counts[state] ?? 0) > 0)
              .map((state) => html`<span class=${`count state-${state}`}>${counts[state]} ${state}</span> `)}
            <span class="muted">· you are ${data.me.handle}</span>
          </p>
          ${
            data.live && !data.live.daemon
              ? html`<p class="notice" data-testid="no-daemon">No daemon runs for this project: nothing new is captured${data.live.attached ? " and teammates' work does not arrive" : ''}. <code>sangam up</code> (or <code>sangam up --ui</code>) starts it.</p>`
              : null
          }
          <${Waiting} threads=${data.blockedOnHuman} now=${now} />
          <h2>Agents and humans</h2>
          ${actors.length === 0 ? html`<p class="empty">Agents appear here once their hooks run: start Claude Code or Codex in this project (after <code>sangam init</code>).</p>` : html`<${ActorTable} actors=${actors} now=${now} />`}
          <h2>Latest messages</h2>
          <${MessageList} messages=${data.messages.slice(-8)} now=${now} />
          <p><a href="#/room">All messages and posting →</a></p>
        `
        : null
    }
  </section>`
}

function Waiting(props: { threads: Thread[]; now: number }): View {
  if (props.threads.length === 0)
    return html`<p class="ok" data-testid="nothing-waiting">Nothing is waiting on a human.</p>`
  return html`<section class="waiting" aria-labelledby="waiting-title" data-testid="waiting">
    <h2 id="waiting-title">Waiting on you (${props.threads.length})</h2>
    <ul>
      ${props.threads.map(
        (thread) => html`<li>
          <a href="#/board" class="waiting-title">${thread.title}</a>
          ${thread.reason ? html`<span> — ${thread.reason}</span>` : null}
          <span class="muted"> · opened by ${thread.source}, <${When} at=${thread.updatedAt} now=${props.now} /></span>
        </li>`,
      )}
    </ul>
  </section>`
}

function ActorTable(props: { actors: Actor[]; now: number }): View {
  return html`<table class="actors" data-testid="actors">
    <thead>
      <tr><th scope="col">State</th><th scope="col">Who</th><th scope="col">Vendor</th><th scope="col">Worktree</th><th scope="col">Machine</th><th scope="col">Last did</th></tr>
    </thead>
    <tbody>
      ${props.actors.map(
        (actor) => html`<tr class=${`actor state-row-${actor.state}`} data-row tabindex="-1">
          <td><${StateBadge} state=${actor.state} /></td>
          <th scope="row" class="handle" title=${actor.name ?? ''}>@${actor.handle}${actor.kind === 'human' && actor.name && actor.name !== actor.handle ? html` <span class="muted">${actor.name}</span>` : null}</th>
          <td><${VendorTag} vendor=${actor.vendor} kind=${actor.kind} /></td>
          <td title=${actor.worktree ?? ''}>${baseName(actor.worktree)}${actor.branch ? html` <span class="branch">${actor.branch}</span>` : null}</td>
          <td title=${actor.machine ?? ''}>${machineText(actor)}</td>
          <td class="last">
            ${
              actor.lastActivity
                ? html`<div class="last-line"><span class="kind">${actor.lastActivity.kind}</span><span class="clip" title=${actor.lastActivity.text}>${actor.lastActivity.text}</span><span class="muted last-when"><${When} at=${actor.lastActivity.at} now=${props.now} /></span></div>`
                : html`<span class="muted">nothing captured yet</span>`
            }
          </td>
        </tr>`,
      )}
    </tbody>
  </table>`
}

export function MessageList(props: { messages: Message[]; now: number }): View {
  if (props.messages.length === 0)
    return html`<p class="empty">No messages yet. <code>sangam post "hello"</code>, or the Room page, posts one.</p>`
  return html`<ol class="messages" data-testid="messages">
    ${props.messages.map(
      (message) => html`<li class="message" data-row tabindex="-1" data-message-id=${message.id}>
        <div class="message-head">
          <strong class="sender">${message.sender}</strong>
          ${message.recipients.length > 0 ? html` <span class="muted">→ ${message.recipients.join(', ')}</span>` : null}
          ${message.kind !== 'message' ? html` <span class="tag">${message.kind}</span>` : null}
          <span class="muted"> · <${When} at=${message.at} now=${props.now} /></span>
        </div>
        <div class="message-text">${message.text}</div>
      </li>`,
    )}
  </ol>`
}

/** The machines by name (older servers sent only the id). */
function machineText(actor: Actor): string {
  if (actor.machineNames !== undefined && actor.machineNames.length > 0) return actor.machineNames.join(', ')
  return shortMachine(actor.machine)
}

function sortActors(actors: Actor[]): Actor[] {
  return [...actors].sort(
    (a, b) =>
      (stateOrder[a.state] ?? 9) - (stateOrder[b.state] ?? 9) ||
      lastAt(b) - lastAt(a) ||
      a.handle.localeCompare(b.handle),
  )
}

function lastAt(actor: Actor): number {
  const at = actor.lastActivity?.at
  return at === undefined ? 0 : typeof at === 'number' ? at : Date.parse(at) || 0
}

function countStates(actors: Actor[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const actor of actors) counts[actor.state] = (counts[actor.state] ?? 0) + 1
  return counts
}
