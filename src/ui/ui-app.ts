import { Hono } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { ErrorCode } from '../shared/sangam-error.ts'
import { errorBody, errorResponse } from './api-error.ts'
import { eventStreamRoute } from './event-stream.ts'
import { contentSecurityPolicy, htmlShell } from './html-shell.ts'
import { laneRoutes } from './lane-routes.ts'
import { leaseRoutes } from './lease-routes.ts'
import { memoryRoutes } from './memory-routes.ts'
import { nowView } from './now-view.ts'
import { guardRequest } from './request-guard.ts'
import { roomRoutes } from './room-routes.ts'
import type { StaticFile } from './static-files.ts'
import type { UiContext } from './ui-context.ts'
import { uiCookieName } from './ui-token.ts'

/**
 * The dashboard's HTTP application: the gate (Host, token, origin) in front of everything, then
 * the API (docs/ui.md, "API"), the client's files and the libraries, and the shell for every
 * other path. `port` and `token` are the run's.
 */
export function uiApp(ctx: UiContext, server: { readonly port: number; readonly token: string }): Hono {
  const app = new Hono()
  const cookie = uiCookieName(server.port)

  app.use(async (c, next) => {
    const verdict = guardRequest(
      {
        method: c.req.method,
        host: c.req.header('host'),
        origin: c.req.header('origin'),
        secFetchSite: c.req.header('sec-fetch-site'),
        contentType: c.req.header('content-type'),
        cookieToken: getCookie(c, cookie),
        queryToken: c.req.query('token'),
      },
      server,
    )
    if (verdict.kind === 'refuse') {
      ctx.log.debug('refused a request', { path: c.req.path, status: verdict.status, why: verdict.message })
      c.res = c.json(errorBody(verdict.code, verdict.message), verdict.status)
    } else if (verdict.kind === 'adopt-token') {
      setCookie(c, cookie, server.token, { httpOnly: true, sameSite: 'Strict', path: '/' })
      const url = new URL(c.req.url)
      url.searchParams.delete('token')
      c.res = c.redirect(`${url.pathname}${url.search}`, 303)
    } else {
      await next()
    }
    c.header('Cache-Control', 'no-store')
    c.header('X-Content-Type-Options', 'nosniff')
    c.header('Referrer-Policy', 'no-referrer')
    c.header('X-Frame-Options', 'DENY')
    c.header('Content-Security-Policy', contentSecurityPolicy)
  })

  app.onError((error, c) => {
    const response = errorResponse(c, error)
    // A refusal is the page's to show; only a failure of the server is the terminal's.
    if (response.status >= 500)
      ctx.log.warn('a dashboard request failed', { path: c.req.path, error: String(error) })
    else ctx.log.debug('a dashboard request was refused', { path: c.req.path, error: String(error) })
    return response
  })

  app.get('/api/now', (c) => c.json(nowView(ctx)))
  roomRoutes(app, ctx)
  memoryRoutes(app, ctx)
  leaseRoutes(app, ctx)
  laneRoutes(app, ctx)
  eventStreamRoute(app, ctx.feed)
  app.all('/api/*', (c) =>
    c.json(errorBody(ErrorCode.NotFound, `no ${c.req.method} ${c.req.path} in this API (docs/ui.md)`), 404),
  )

  const send = (
    c: { body: (data: Uint8Array, status: 200, headers: Record<string, string>) => Response },
    file: StaticFile,
  ) => c.body(file.body, 200, { 'Content-Type': file.type })
  app.get('/app/*', async (c) => {
    const file = await ctx.files.app(c.req.path.slice('/app/'.length))
    return file === null ? c.text('not found', 404) : send(c, file)
  })
  app.get('/vendor/:name', async (c) => {
    const file = await ctx.files.vendor(c.req.param('name'))
    return file === null ? c.text('not found', 404) : send(c, file)
  })
  app.get('*', (c) => c.html(htmlShell))
  return app
}
