import { when } from './command-input.ts'

/** `--since` as `up` and `index` take it: where capture's window starts. */
export const captureSince = when(
  '--since <date|Nd>',
  'capture window start: an ISO date (2026-11-01) or a count back (14d, 12h); default 14d',
)
