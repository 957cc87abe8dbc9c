/**
 * The patterns a release names, whichever surface asks: `sangam release`, the MCP tool
 * `ctx_release` and the dashboard's `POST /api/leases/release`. None given, or an empty list, is
 * null: every lease of the releaser's (leases/services/release-lease.ts), as each surface says.
 */
export function releasedPatterns(given: readonly string[] | undefined): readonly string[] | null {
  return given === undefined || given.length === 0 ? null : given
}
