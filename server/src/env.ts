/**
 * The Worker's vars, as declared in `server/wrangler.jsonc` (and given by `sangam serve`): what
 * the Durable Object reads too. The limits are strings because `wrangler deploy --var NAME:VALUE`
 * and the dashboard set strings; `limits.ts` parses them once. The Worker's own bindings add the
 * project objects' namespace (worker.ts), which the object never uses.
 */
export interface Vars {
  readonly MAX_BODY_BYTES?: string | undefined
  readonly MAX_RECORDS_PER_PUSH?: string | undefined
  readonly PUSHES_PER_SECOND?: string | undefined
  readonly PROJECT_PUSHES_PER_SECOND?: string | undefined
  readonly PROJECTS_PER_HOUR_PER_ADDRESS?: string | undefined
  readonly PROJECTS_PER_HOUR?: string | undefined
  readonly MAX_SOCKETS_PER_PROJECT?: string | undefined
  readonly MAX_PROJECT_BYTES?: string | undefined
  readonly ADOPT_UNREGISTERED_DAYS?: string | undefined
  /** Set by `sangam serve` only: the ids of the projects its data dir holds (a JSON array). */
  readonly REGISTERED_PROJECTS?: string | undefined
}
