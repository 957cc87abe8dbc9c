import { type HealthResponse, syncProtocolVersion } from '../../src/protocol/sync/limits.ts'
import { healthPath, matchSyncRoute } from '../../src/protocol/sync/routes.ts'
import { bearerKey, refuseKeyInQuery } from './auth.ts'
import type { Env } from './env.ts'
import { readLimits } from './limits.ts'
import { failureResponse, jsonResponse, Refusal } from './refusal.ts'
import { discardBody } from './request-body.ts'

export { ProjectObject } from './project-object.ts'

/**
 * The Worker: answers the health probe itself and sends everything about a project to that
 * project's one Durable Object, which owns its storage, its order and its sockets. Requests that
 * can be refused without the object (bad path, no key, key in the URL) never reach it.
 */
export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    try {
      const url = new URL(request.url)
      refuseKeyInQuery(url)
      const match = matchSyncRoute(request.method, url.pathname)
      if (!match.ok) throw routeRefusal(match.code, request.method, url.pathname)
      if (match.route.kind === 'health') return health(env)
      bearerKey(request)
      return await env.PROJECTS.getByName(match.route.projectId).fetch(request)
    } catch (error) {
      await discardBody(request)
      return failureResponse(error, 'worker')
    }
  },
} satisfies ExportedHandler<Env>

function health(env: Env): Response {
  const body: HealthResponse = {
    ok: true,
    service: 'sangam-sync',
    protocol: syncProtocolVersion,
    limits: readLimits(env),
  }
  return jsonResponse(body)
}

function routeRefusal(
  code: 'NOT_FOUND' | 'METHOD_NOT_ALLOWED' | 'INVALID_REQUEST',
  method: string,
  path: string,
) {
  if (code === 'INVALID_REQUEST') return new Refusal(code, 'the project id in the path is not valid')
  if (code === 'METHOD_NOT_ALLOWED') return new Refusal(code, `${method} is not allowed on ${path}`)
  return new Refusal(code, `no route ${path} (the API lives under /v1/projects/; probe ${healthPath})`)
}
