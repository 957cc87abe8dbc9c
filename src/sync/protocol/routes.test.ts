import assert from 'node:assert/strict'
import { test } from 'node:test'
import { matchSyncRoute, type SyncAction, syncActions, syncPath } from './routes.ts'

test('every action routes back to itself from the path clients build', () => {
  for (const action of Object.keys(syncActions) as SyncAction[]) {
    const match = matchSyncRoute(syncActions[action].method, syncPath('prj_55c77fa74600c37a', action))
    assert.deepEqual(match, {
      ok: true,
      route: { kind: 'project', projectId: 'prj_55c77fa74600c37a', action },
    })
  }
})

test('the health probe, unknown paths and wrong methods are told apart', () => {
  assert.deepEqual(matchSyncRoute('GET', '/v1/health'), { ok: true, route: { kind: 'health' } })
  assert.deepEqual(matchSyncRoute('POST', '/v1/health'), { ok: false, code: 'METHOD_NOT_ALLOWED' })
  assert.deepEqual(matchSyncRoute('GET', '/'), { ok: false, code: 'NOT_FOUND' })
  assert.deepEqual(matchSyncRoute('GET', '/v1/projects/prj_1/nothing'), { ok: false, code: 'NOT_FOUND' })
  assert.deepEqual(matchSyncRoute('DELETE', '/v1/projects/prj_1/records'), {
    ok: false,
    code: 'METHOD_NOT_ALLOWED',
  })
  assert.deepEqual(matchSyncRoute('PUT', '/v1/projects/prj_1'), { ok: false, code: 'METHOD_NOT_ALLOWED' })
})

test('a project id that is not a plain name is refused before any lookup', () => {
  for (const id of ['', '..', 'a%2Fb', 'a b', '%E0%A4%A', 'x'.repeat(65)])
    assert.deepEqual(matchSyncRoute('GET', `/v1/projects/${id}`), { ok: false, code: 'INVALID_REQUEST' }, id)
})
