import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Miniflare } from 'miniflare'
import { workerBundleDir } from '../../src/serve/local-server.ts'

/**
 * The real Worker bundle (dist/server/worker.js) in real workerd, with one thing faked: time.
 * A test entry wraps the Worker and replaces `Date.now` in its isolate (the Durable Object runs
 * there too) with a clock the test sets through `POST /__test/clock`; every other request goes to
 * the Worker unchanged. So a lease's expiry on the server can be reached without sleeping.
 * Test-only: the shipped bundle has no such route.
 */
export interface ClockedServer extends AsyncDisposable {
  readonly url: string
  /** Sets the server's `Date.now()`. */
  setTime(now: number): Promise<void>
}

const entry = `
import worker, { ProjectObject } from './worker.js'
const realNow = Date.now
let fixed = null
Date.now = () => fixed ?? realNow()
export { ProjectObject }
export default {
  async fetch(request, env, ctx) {
    if (new URL(request.url).pathname !== '/__test/clock') return worker.fetch(request, env, ctx)
    fixed = Number(await request.text())
    return new Response(String(Date.now()))
  },
}
`

export async function startClockedServer(now: number): Promise<ClockedServer> {
  const config = JSON.parse(readFileSync(join(workerBundleDir, 'worker-config.json'), 'utf8')) as {
    compatibilityDate: string
    compatibilityFlags: string[]
    vars: Record<string, string>
  }
  const miniflare = new Miniflare({
    modulesRoot: workerBundleDir,
    modules: [
      { type: 'ESModule', path: join(workerBundleDir, 'clocked-test-entry.js'), contents: entry },
      { type: 'ESModule', path: join(workerBundleDir, 'worker.js') },
    ],
    compatibilityDate: config.compatibilityDate,
    compatibilityFlags: config.compatibilityFlags,
    durableObjects: { PROJECTS: { className: 'ProjectObject', useSQLite: true } },
    bindings: config.vars,
    host: '127.0.0.1',
    port: 0,
    cf: false,
  })
  const url = `http://${(await miniflare.ready).host}`
  const setTime = async (at: number): Promise<void> => {
    const answer = await fetch(`${url}/__test/clock`, { method: 'POST', body: String(at) })
    if (Number(await answer.text()) !== at) throw new Error('the test clock did not take')
  }
  await setTime(now)
  return { url, setTime, [Symbol.asyncDispose]: () => miniflare.dispose() }
}
