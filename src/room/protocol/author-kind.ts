// Kept apart from message.ts, which needs zod: the store reads an author back on every query,
// and a read command must not load the schema library (src/cli/registry.test.ts).

/**
 * Who wrote a message, as the channel it came through could tell (`room/core/post-author.ts`):
 * `human`, a person typing (a CLI at a terminal with no agent session, `chat`, the dashboard);
 * `agent`, an agent's channel (the MCP server, a process carrying a vendor's session variables or
 * the ones sangam sets on turns it starts); `sangam`, sangam itself (`ready`'s conflict threads);
 * `unknown`, nobody could tell (a script, a pipe; a record from an older sangam). Delivery's loop
 * guard resets only on `human` (docs/room.md, Delivery).
 */
export const authorKinds = ['human', 'agent', 'sangam', 'unknown'] as const
export type AuthorKind = (typeof authorKinds)[number]
