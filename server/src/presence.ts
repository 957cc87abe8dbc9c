import { actorKey } from '../../src/identity/core/actor-names.ts'
import { type Actor, actorSchema } from '../../src/identity/protocol/actor.ts'
import { type PresenceEntry, presenceHorizonMs } from '../../src/sync/protocol/presence.ts'

/** One actor's live connections, as counted from the object's subscribed sockets. */
export interface Connected {
  readonly actor: Actor
  readonly connections: number
}

interface ActivityRow extends Record<string, SqlStorageValue> {
  actor_key: string
  actor: string
  last_active_at: number
}

/**
 * Activity is stored to this resolution: an actor active again within it is not written again.
 * Without it every claim, even a refused one, and every replayed push would be a storage write,
 * and a write costs the object a durable commit before it may answer.
 */
export const activityResolutionMs = 10_000

/** Last activity per actor (stored), joined with who is connected (counted from the sockets). */
export class Presence {
  readonly #sql: SqlStorage
  /** When each actor's activity was last written, by this instance (forgotten on hibernation). */
  readonly #written = new Map<string, number>()

  constructor(sql: SqlStorage) {
    this.#sql = sql
  }

  touch(actors: readonly Actor[], now: number): void {
    if (this.#written.size > 10_000) this.#written.clear()
    for (const actor of actors) {
      const key = actorKey(actor)
      if (now - (this.#written.get(key) ?? Number.NEGATIVE_INFINITY) < activityResolutionMs) continue
      this.#written.set(key, now)
      this.#sql.exec(
        `INSERT INTO actor_activity (actor_key, actor, last_active_at) VALUES (?, ?, ?)
         ON CONFLICT (actor_key) DO UPDATE SET last_active_at = max(last_active_at, excluded.last_active_at)`,
        key,
        JSON.stringify(actor),
        now,
      )
    }
  }

  /** Forgets actors idle past the horizon; presence never lists them, so their rows are dead weight. */
  prune(now: number): void {
    this.#sql.exec('DELETE FROM actor_activity WHERE last_active_at < ?', now - presenceHorizonMs)
  }

  list(now: number, connected: ReadonlyMap<string, Connected>): PresenceEntry[] {
    const rows = this.#sql
      .exec<ActivityRow>(
        'SELECT actor_key, actor, last_active_at FROM actor_activity WHERE last_active_at >= ?',
        now - presenceHorizonMs,
      )
      .toArray()
    const entries = new Map<string, PresenceEntry>()
    for (const [key, { actor, connections }] of connected)
      entries.set(key, { actor, connections, online: true, lastActiveAt: null })
    for (const row of rows) {
      const live = connected.get(row.actor_key)
      entries.set(row.actor_key, {
        actor: live?.actor ?? actorSchema.parse(JSON.parse(row.actor)),
        connections: live?.connections ?? 0,
        online: live !== undefined,
        lastActiveAt: new Date(row.last_active_at).toISOString(),
      })
    }
    return [...entries.values()].sort(byOnlineThenRecent)
  }
}

function byOnlineThenRecent(a: PresenceEntry, b: PresenceEntry): number {
  if (a.online !== b.online) return a.online ? -1 : 1
  return (b.lastActiveAt ?? '').localeCompare(a.lastActiveAt ?? '')
}
