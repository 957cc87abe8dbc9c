// Kept apart from message.ts, which needs zod: `post` checks a text's length on every run and must
// not load the schema library for one number (docs/performance.md, beside the peers).

/** The most characters a message's text may have, after trimming. */
export const maxMessageChars = 4000
