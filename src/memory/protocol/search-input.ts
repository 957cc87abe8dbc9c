import type { EventKind, Vendor } from './event.ts'

/**
 * What a search of memory takes, whichever surface asks: `sangam search`, the MCP tool
 * `ctx_search` and the dashboard's timeline. The limits and the default are here only; the MCP
 * tool asks for fewer hits by default (each lands in an agent's context window). Zod-free:
 * `sangam search` loads no zod. The CLI's flags quote them without importing them (--help loads no
 * feature code); src/cli/registry.test.ts keeps the two equal.
 */
export interface SearchInput {
  readonly text: string
  readonly vendor?: Vendor | undefined
  readonly kinds?: readonly EventKind[] | undefined
  readonly sessionId?: string | undefined
  readonly branch?: string | undefined
  /** Only the events of this human's sessions (the dashboard's actor filter; no CLI flag). */
  readonly author?: string | undefined
  /** Only events whose `cwd` is this directory or below it (the dashboard's worktree filter). */
  readonly cwdUnder?: string | undefined
  /** `--since`: `Nd`/`Nh`/`Nm`, an ISO date, or `all`; absent means the 14-day window. */
  readonly since?: string | undefined
  /** `--until`: same forms as since (not `all`); absent means now and later. */
  readonly until?: string | undefined
  /** At most this many hits: `defaultSearchLimit` when absent, `maxSearchLimit` at most. */
  readonly limit?: number | undefined
}

export const defaultSearchLimit = 20
export const maxSearchLimit = 200
