// Kept apart from thread.ts, which needs zod: every room command resolves recipients with it, and
// a command that only reads or posts must not load the schema library (docs/performance.md).

/** The human token: every thread whose audience is `human-loop` has it among its participants. */
export const humanToken = '@human'
