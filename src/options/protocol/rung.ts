/**
 * How loudly a house rule lands when its condition is seen (docs/glossary.md: rule, rung). Every
 * rule has one of these four, in order of loudness; each rung does what the one before it does,
 * and more. Defined once here, without zod: the edit hook reads rungs on every edit.
 */
export const rungs = ['off', 'advise', 'warn', 'refuse'] as const
export type Rung = (typeof rungs)[number]

/** What each rung does, as `rules` and `options` show it. */
export const rungMeanings: Readonly<Record<Rung, string>> = {
  off: 'not checked',
  advise: 'told to whoever triggers it',
  warn: "also carried into every session's brief",
  refuse: 'denied',
}

export function isRung(value: unknown): value is Rung {
  return typeof value === 'string' && (rungs as readonly string[]).includes(value)
}
