import { projectIdSchema } from './project.ts'

/**
 * The sync server's HTTP surface, in one table shared by the server (which routes with
 * `matchSyncRoute`) and clients (which build URLs with `syncPath`), so the two cannot drift.
 */
export const syncActions = {
  create: { method: 'POST', suffix: '' },
  info: { method: 'GET', suffix: '' },
  push: { method: 'POST', suffix: '/records' },
  pull: { method: 'GET', suffix: '/records' },
  leases: { method: 'GET', suffix: '/leases' },
  claim: { method: 'POST', suffix: '/leases/claim' },
  release: { method: 'POST', suffix: '/leases/release' },
  presence: { method: 'GET', suffix: '/presence' },
  lock: { method: 'GET', suffix: '/lock' },
  lockAcquire: { method: 'POST', suffix: '/lock/acquire' },
  lockHeartbeat: { method: 'POST', suffix: '/lock/heartbeat' },
  lockRelease: { method: 'POST', suffix: '/lock/release' },
  lockTakeover: { method: 'POST', suffix: '/lock/takeover' },
  lockMain: { method: 'POST', suffix: '/lock/main' },
  socket: { method: 'GET', suffix: '/socket' },
} as const
export type SyncAction = keyof typeof syncActions

/** Answers without touching any project; what load balancers and `sangam serve`'s callers probe. */
export const healthPath = '/v1/health'
const projectsPrefix = '/v1/projects/'

export function syncPath(projectId: string, action: SyncAction): string {
  return `${projectsPrefix}${encodeURIComponent(projectId)}${syncActions[action].suffix}`
}

export type SyncRoute =
  | { readonly kind: 'health' }
  | { readonly kind: 'project'; readonly projectId: string; readonly action: SyncAction }

export type SyncRouteMatch =
  | { readonly ok: true; readonly route: SyncRoute }
  | { readonly ok: false; readonly code: 'NOT_FOUND' | 'METHOD_NOT_ALLOWED' | 'INVALID_REQUEST' }

export function matchSyncRoute(method: string, pathname: string): SyncRouteMatch {
  if (pathname === healthPath) return method === 'GET' ? { ok: true, route: { kind: 'health' } } : notAllowed
  if (!pathname.startsWith(projectsPrefix)) return notFound
  const [rawId = '', ...rest] = pathname.slice(projectsPrefix.length).split('/')
  const suffix = rest.length === 0 ? '' : `/${rest.join('/')}`
  const candidates = (Object.keys(syncActions) as SyncAction[]).filter(
    (action) => syncActions[action].suffix === suffix,
  )
  if (candidates.length === 0) return notFound
  const action = candidates.find((candidate) => syncActions[candidate].method === method)
  if (action === undefined) return notAllowed
  const projectId = projectIdSchema.safeParse(safeDecode(rawId))
  if (!projectId.success) return { ok: false, code: 'INVALID_REQUEST' }
  return { ok: true, route: { kind: 'project', projectId: projectId.data, action } }
}

const notFound: SyncRouteMatch = { ok: false, code: 'NOT_FOUND' }
const notAllowed: SyncRouteMatch = { ok: false, code: 'METHOD_NOT_ALLOWED' }

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return ''
  }
}
