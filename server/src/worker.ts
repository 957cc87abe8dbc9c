import { type HealthResponse, syncProtocolVersion } from '../../src/sync/protocol/limits.ts'
import { healthPath, matchSyncRoute } from '../../src/sync/protocol/routes.ts'
import { bearerKey, refuseKeyInQuery, unauthorized } from './auth.ts'
import type { Vars } from './env.ts'
import { readLimits } from './limits.ts'
import type { ProjectObject } from './project-object.ts'
import type { ProjectStanding } from './project-registry.ts'
import { clientAddress } from './push-admission.ts'
import { PushRateLimiter } from './push-rate-limiter.ts'
import { failureResponse, jsonResponse, Refusal } from './refusal.ts'
import { discardBody } from './request-body.ts'

/** The Worker's bindings: its vars and the project objects' namespace (wrangler.jsonc). */
interface Env extends Vars {
  readonly PROJECTS: DurableObjectNamespace<ProjectObject>
}

export { ProjectObject } from './project-object.ts'

/**
 * The Worker: answers the health probe itself and sends everything about a project to that
 * project's one Durable Object, which owns its storage, its order and its sockets. Requests that
 * can be refused without the object (bad path, no key, key in the URL, an id that was never
 * created) never reach it.
 */
export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    try {
      const url = new URL(request.url)
      refuseKeyInQuery(url, null)
      const match = matchSyncRoute(request.method, url.pathname)
      if (!match.ok) throw routeRefusal(match.code, request.method, url.pathname)
      if (match.route.kind === 'health') return health(env)
      refuseKeyInQuery(url, bearerKey(request))
      const { projectId } = match.route
      if (match.route.action === 'create') return await create(env, request, projectId)
      return await serveProject(env, request, projectId)
    } catch (error) {
      await discardBody(request)
      return failureResponse(error, 'worker')
    }
  },
} satisfies ExportedHandler<Env>

/**
 * Failed authentications (wrong key or unknown project: one answer) per client address and in all,
 * counted in this isolate's memory. Past the limit the Worker refuses requests for project ids it
 * has not seen a right key for, before any project object is started. That slows probing and the
 * touching of object ids (workerd creates an empty database file for every object it starts, even
 * one that writes nothing). `sangam serve` runs one isolate, so there the count is exact; on
 * Cloudflare it is per isolate, and an object that writes nothing stores nothing.
 */
const failuresPerMinutePerAddress = 60
const failuresPerMinute = 600
const failures = {
  perAddress: new PushRateLimiter(failuresPerMinutePerAddress / 60, failuresPerMinutePerAddress),
  all: new PushRateLimiter(failuresPerMinute / 60, failuresPerMinute),
}

/**
 * Project ids this isolate has seen answer a request with the right key. The failure limit never
 * holds them up: otherwise anyone could spend it (600 wrong keys a minute) and shut every team
 * out. What it still stops is requests for ids nobody has shown a key for: probing and touching
 * new object ids. Bounded; forgetting only means an id is checked against the limit once more.
 */
const knownProjects = new Set<string>()

function knowProject(projectId: string): void {
  if (knownProjects.size >= 10_000) knownProjects.clear()
  knownProjects.add(projectId)
}

function refuseRepeatedFailures(address: string, now: number): void {
  const waits = [failures.perAddress.wait(address, now), failures.all.wait('all', now)]
  const retryAfterMs = Math.max(...waits)
  if (retryAfterMs > 0)
    throw new Refusal('RATE_LIMITED', 'too many requests with a wrong key or for an unknown project', {
      retryAfterMs,
    })
}

function countFailure(address: string, now: number): void {
  failures.perAddress.take(address, now)
  failures.all.take('all', now)
}

/**
 * The one object that counts project creations and keeps the list of the projects that exist (see
 * project-registry.ts); no project id can take this name (`~` is not allowed).
 */
const registrarName = '~registrar'

/**
 * A request for an existing project goes to its object. One for an id this isolate has not seen
 * opened is first checked against the failed-authentication limit and then the registrar's list:
 * an id that was never created is refused here, with the answer a wrong key gets, and no object
 * for it ever starts (workerd would create its database file).
 */
async function serveProject(env: Env, request: Request, projectId: string): Promise<Response> {
  const address = clientAddress(request)
  let standing: ProjectStanding = 'registered'
  if (!knownProjects.has(projectId)) {
    refuseRepeatedFailures(address, Date.now())
    standing = await env.PROJECTS.getByName(registrarName).standing(projectId, Date.now())
    if (standing === 'unknown') {
      countFailure(address, Date.now())
      throw unauthorized()
    }
  }
  const response = await env.PROJECTS.getByName(projectId).fetch(request)
  if (response.status === 401) countFailure(address, Date.now())
  else if (response.status < 400) {
    knowProject(projectId)
    // A project from before the registrar kept ids, opened by its key: from now on it is listed.
    if (standing === 'adoptable')
      await env.PROJECTS.getByName(registrarName).register(projectId, 'adopted', Date.now())
  }
  return response
}

/**
 * Refuses a create over the per-address or the global creation rate, before any project object
 * starts; a create the project object accepts (a new project, or the same key again) is listed.
 */
async function create(env: Env, request: Request, projectId: string): Promise<Response> {
  const registrar = env.PROJECTS.getByName(registrarName)
  const verdict = await registrar.admitCreation(clientAddress(request), Date.now())
  if (!verdict.allowed)
    throw new Refusal('RATE_LIMITED', 'too many projects created lately; try again later', {
      retryAfterMs: verdict.retryAfterMs,
    })
  const response = await env.PROJECTS.getByName(projectId).fetch(request)
  if (response.status === 200 || response.status === 201) {
    await registrar.register(projectId, 'created', Date.now())
    knowProject(projectId)
  }
  return response
}

function health(env: Env): Response {
  const body: HealthResponse = {
    ok: true,
    service: 'sangam-sync',
    protocol: syncProtocolVersion,
    limits: readLimits(env).sync,
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
