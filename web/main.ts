import { render } from 'preact'
import { App } from './app.ts'
import { html } from './html.ts'
import { LiveFeed } from './live/live-feed.ts'

// The shell (served by `sangam ui` at /) loads this module with an import map for preact, htm
// and uplot, and gives it <div id="app">; without one, the body is the root.
const feed = new LiveFeed('/api/events')
feed.start()
render(html`<${App} feed=${feed} />`, document.getElementById('app') ?? document.body)
