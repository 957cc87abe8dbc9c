import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { loadMessages, loadTargets, loadThreads, postMessage } from '../api/endpoints.ts'
import { html, type View } from '../html.ts'
import { useLive } from '../live/use-live.ts'
import { ErrorNote, Loading } from '../parts/error-note.ts'
import { mentionTargets } from '../parts/mention-candidates.ts'
import { MentionInput } from '../parts/mention-input.ts'
import { useNow } from '../parts/use-now.ts'
import { MessageList } from './now-page.ts'

/** The room's messages (all, or one thread's) and the composer. */
export function RoomPage(props: { query: URLSearchParams }): View {
  const now = useNow()
  const thread = props.query.get('thread') ?? ''
  const messages = useLive(
    () => loadMessages({ thread: thread || undefined, limit: 200 }),
    ['messages'],
    `messages:${thread}`,
  )
  const threads = useLive(() => loadThreads(false), ['threads', 'board'], 'threads')
  const targets = useLive(loadTargets, ['presence'], 'targets')
  const names = useMemo(() => (targets.data ? mentionTargets(targets.data) : []), [targets.data])
  const [text, setText] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<Error | null>(null)
  const end = useRef<HTMLDivElement>(null)
  const count = messages.data?.length ?? 0
  useEffect(() => end.current?.scrollIntoView({ block: 'end' }), [count])

  const send = async () => {
    const body = text.trim()
    if (!body || busy) return
    setBusy(true)
    setError(null)
    try {
      await postMessage(body, thread || null)
      setText('')
      messages.reload()
    } catch (failure) {
      setError(failure as Error)
    } finally {
      setBusy(false)
    }
  }

  const chooseThread = (id: string) => {
    location.hash = id ? `#/room?thread=${encodeURIComponent(id)}` : '#/room'
  }

  return html`<section aria-labelledby="page-title" class="room">
    <h1 id="page-title" tabindex="-1">Room</h1>
    <div class="row">
      <label>Thread
        <select data-testid="thread-filter" value=${thread} onChange=${(event: Event) => chooseThread((event.currentTarget as HTMLSelectElement).value)}>
          <option value="">All messages</option>
          ${(threads.data ?? []).map((item) => html`<option value=${item.id}>${item.title}</option>`)}
        </select>
      </label>
    </div>
    <${Loading} when=${messages.loading && !messages.data} />
    <${ErrorNote} error=${messages.error} />
    ${messages.data ? html`<${MessageList} messages=${messages.data} now=${now} />` : null}
    <div ref=${end}></div>
    <form class="composer panel" onSubmit=${(event: Event) => {
      event.preventDefault()
      void send()
    }}>
      <${MentionInput}
        id="composer"
        label=${thread ? 'Post in this thread' : 'Post to the room'}
        value=${text}
        targets=${names}
        onInput=${setText}
        onSubmit=${() => void send()}
        placeholder="Type @ to tag an agent or human, # for a worktree. Enter sends, Shift+Enter for a new line."
      />
      <${ErrorNote} error=${error} />
      <button type="submit" disabled=${busy || !text.trim()}>${busy ? 'Posting…' : 'Post'}</button>
      <span class="muted"> Posted as you, the human; the same checks as <code>sangam post</code> (a text that looks like a secret is refused).</span>
    </form>
  </section>`
}
