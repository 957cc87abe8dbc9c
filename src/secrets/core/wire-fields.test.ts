import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { z } from 'zod'
import { samples } from '../../../test/helpers/secret-samples.ts'
import * as lockProtocol from '../../lanes/protocol/integration-lock.ts'
import * as leaseProtocol from '../../leases/protocol/lease.ts'
import { isSangamError } from '../../shared/sangam-error.ts'
import * as leaseSyncProtocol from '../../sync/protocol/lease.ts'
import * as pullProtocol from '../../sync/protocol/pull.ts'
import * as pushProtocol from '../../sync/protocol/push.ts'
import { recordTypes } from '../../sync/protocol/record.ts'
import * as upstreamProtocol from '../../sync/protocol/upstream.ts'
import {
  findSecret,
  guardWrite,
  redactAll,
  redactForWire,
  type WireShape,
  wireFields,
} from './wire-fields.ts'

/** The string fields of a zod schema, as dotted paths with `[]` for array elements. */
function stringPaths(schema: z.ZodType, path = ''): string[] {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def
  const inner = (next: unknown, at: string) => stringPaths(next as z.ZodType, at)
  const join = (key: string) => (path === '' ? key : `${path}.${key}`)
  switch (def.type) {
    case 'string':
      return [path]
    case 'object':
      return Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([key, value]) =>
        inner(value, join(key)),
      )
    case 'array':
      return inner(def.element, `${path}[]`)
    case 'tuple':
      return (def.items as z.ZodType[]).flatMap((item) => inner(item, `${path}[]`))
    case 'nullable':
    case 'optional':
    case 'default':
    case 'readonly':
    case 'nonoptional':
    case 'prefault':
      return inner(def.innerType, path)
    case 'pipe':
      return inner(def.in, path)
    case 'union':
      return (def.options as z.ZodType[]).flatMap((option) => inner(option, path))
    case 'number':
    case 'boolean':
    case 'literal':
    case 'enum':
      return []
    default:
      throw new Error(`${path}: a ${def.type} schema; teach stringPaths what strings it holds`)
  }
}

const unique = (paths: readonly string[]) => [...new Set(paths)].sort()
const classified = (shape: WireShape) => Object.keys(wireFields[shape]).sort()

test('every string field of every record type is classified by the free-text rule', () => {
  for (const type of recordTypes) {
    const shape: WireShape = type.name
    assert.deepEqual(
      unique(stringPaths(type.served)),
      classified(shape),
      `${type.name}: classify each new string field in secrets/core/wire-fields.ts (name, prose, context, or not free text and why); drop the ones that went`,
    )
  }
})

/**
 * What the server stores from, besides records: every request and upstream message of the sync
 * protocol. Each export named `…RequestSchema` or `…MessageSchema` must be listed here, with the
 * shape of wire-fields.ts that classifies its strings, or null when it holds none of its own.
 */
const requestShapes: Record<string, WireShape | null> = {
  claimRequestSchema: 'lease claim',
  serverClaimRequestSchema: 'lease claim',
  serverReleaseRequestSchema: 'lease release',
  lockAcquireRequestSchema: 'lock acquire',
  lockHeartbeatRequestSchema: 'lock heartbeat',
  lockReleaseRequestSchema: null,
  lockTakeoverRequestSchema: 'lock takeover',
  lockMainRequestSchema: 'lock main',
  pushRequestSchema: null,
  subscribeMessageSchema: 'socket actor',
  pushMessageSchema: null,
  activityMessageSchema: 'socket actor',
  upstreamMessageSchema: 'socket actor',
}

/** Strings of requests that are no free text, and why; `records[]` are each checked as their type. */
const notStored: Record<string, string> = {
  clientId: 'a client id, 8–64 characters of A–Z, a–z, 0–9, _ and - (the schema checks it)',
  requestId: "the socket push's request id, echoed in the answer and never stored",
}

test('every request and upstream message the server takes is classified too', () => {
  const modules = [
    leaseProtocol,
    leaseSyncProtocol,
    lockProtocol,
    pushProtocol,
    pullProtocol,
    upstreamProtocol,
  ]
  const found = modules.flatMap((module) =>
    Object.entries(module).filter(([name]) => /(Request|Message)Schema$/.test(name)),
  )
  assert.deepEqual(
    found.map(([name]) => name).sort(),
    Object.keys(requestShapes).sort(),
    'list each new request or upstream message in requestShapes',
  )
  for (const [name, schema] of found) {
    const shape = requestShapes[name]
    const paths = unique(
      stringPaths(schema as z.ZodType).filter(
        (path) => !path.startsWith('records[]') && notStored[path] === undefined,
      ),
    )
    if (shape === null || shape === undefined) {
      assert.deepEqual(paths, [], `${name} holds strings: give it a shape in wire-fields.ts`)
      continue
    }
    const known = classified(shape)
    assert.deepEqual(
      paths.filter((path) => !known.includes(path)),
      [],
      `${name}: classify these fields under '${shape}' in wire-fields.ts`,
    )
  }
})

const token = samples.github[0] ?? ''
const slack = samples.slackBot

test('a write refuses a secret in a name or prose field, naming the field and the kind, never the secret', () => {
  const claim = { actor: { human: 'ann', vendor: null, sessionId: null }, patterns: ['src/a.ts'] }
  for (const [value, field] of [
    [{ ...claim, reason: `rotating ${slack}` }, 'the lease reason'],
    [{ ...claim, patterns: ['src/a.ts', `src/${token}.ts`], reason: 'x' }, 'a lease pattern'],
  ] as const) {
    assert.throws(
      () => guardWrite('lease claim', value),
      (error: unknown) => {
        assert.ok(isSangamError(error))
        assert.equal(error.code, 'INVALID_INPUT')
        assert.match(error.message, new RegExp(`^${field} holds a secret \\((github|slack)`))
        assert.doesNotMatch(error.message, new RegExp(token.slice(4) || 'x'))
        assert.deepEqual((error.data as { field: string }).field, field)
        return true
      },
    )
  }
  const clean = { ...claim, reason: 'parser rewrite' }
  assert.equal(guardWrite('lease claim', clean), clean, 'a value without secrets is not copied')
})

test('a write redacts context; what leaves the machine keeps a name or prose secret back', () => {
  const presence = {
    id: 'presence:claude:s1:1',
    payload: { handle: 'ann', branch: `lane/${token}`, worktree: '/w', machine: 'm_0' },
  }
  const stored = guardWrite('room.presence', presence)
  assert.equal(stored.payload.branch, 'lane/[REDACTED:github-token]')
  const leaving = redactForWire('room.presence', {
    ...presence,
    payload: { ...presence.payload, handle: token },
  })
  assert.equal(leaving.value.payload.branch, 'lane/[REDACTED:github-token]')
  assert.equal(leaving.refused?.path, 'payload.handle')
  const applied = redactForWire('room.presence', leaving.value, redactAll)
  assert.equal(applied.refused, null)
  assert.equal(applied.value.payload.handle, '[REDACTED:github-token]')
  assert.deepEqual(findSecret('room.presence', presence)?.field, {
    kind: 'context',
    label: "the session's branch",
  })
  assert.equal(findSecret('room.presence', stored), null)
})

test('a string at a path the table does not know is checked as a name', () => {
  assert.equal(findSecret('lock heartbeat', { surprise: token })?.path, 'surprise')
})
