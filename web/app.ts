import { useEffect, useMemo, useState } from 'preact/hooks'
import { html, type View } from './html.ts'
import { shortcuts, useShortcuts } from './keyboard.ts'
import type { LiveFeed } from './live/live-feed.ts'
import { FeedContext, useFeedStatus } from './live/use-live.ts'
import { parseHash, routes } from './routes.ts'

const statusText = {
  connecting: 'connecting…',
  live: 'live',
  reconnecting: 'reconnecting…',
  closed: 'disconnected: reload the page (or run sangam ui again)',
} as const

/** The one app: navigation, the current page, the live status and the keys. */
export function App(props: { feed: LiveFeed }): View {
  const [hash, setHash] = useState(location.hash)
  const [help, setHelp] = useState(false)
  useEffect(() => {
    const onHash = () => setHash(location.hash)
    window.addEventListener('hashchange', onHash)
    return () => window.removeEventListener('hashchange', onHash)
  }, [])
  const { route, query } = parseHash(hash)
  useEffect(() => {
    document.title = `${route.title} · sangam`
    document.getElementById('page-title')?.focus({ preventScroll: true })
  }, [route.id])
  const actions = useMemo(
    () => ({ toggleHelp: () => setHelp((shown) => !shown), closeHelp: () => setHelp(false) }),
    [],
  )
  useShortcuts(actions)
  const Page = route.page
  return html`<${FeedContext.Provider} value=${props.feed}>
    <a class="skip" href="#main" onClick=${(event: Event) => {
      event.preventDefault()
      document.getElementById('page-title')?.focus()
    }}>Skip to content</a>
    <header class="top">
      <span class="brand">sangam</span>
      <nav aria-label="Pages">
        <ul>
          ${routes.map(
            (item) =>
              html`<li><a href=${`#/${item.id}`} aria-current=${item.id === route.id ? 'page' : undefined} aria-keyshortcuts=${item.key}>${item.title}<kbd aria-hidden="true">${item.key}</kbd></a></li>`,
          )}
        </ul>
      </nav>
      <${FeedBadge} />
      <button type="button" class="quiet keys-button" onClick=${actions.toggleHelp} aria-expanded=${help ? 'true' : 'false'} aria-controls="keys">Keys <kbd>?</kbd></button>
    </header>
    ${help ? html`<${KeysPanel} onClose=${actions.closeHelp} />` : null}
    <main id="main"><${Page} query=${query} /></main>
  <//>`
}

function FeedBadge(): View {
  const status = useFeedStatus()
  return html`<span class=${`feed feed-${status}`} role="status" data-testid="feed-status" data-status=${status}><span class="dot" aria-hidden="true"></span>${statusText[status]}</span>`
}

function KeysPanel(props: { onClose: () => void }): View {
  return html`<aside id="keys" class="keys panel" aria-label="Keyboard shortcuts">
    <h2>Keys</h2>
    <dl>${shortcuts.map((shortcut) => html`<dt><kbd>${shortcut.keys}</kbd></dt><dd>${shortcut.does}</dd>`)}</dl>
    <button type="button" onClick=${props.onClose}>Close <kbd>Esc</kbd></button>
  </aside>`
}
