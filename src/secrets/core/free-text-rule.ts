import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import { scrubSecrets } from './scrubber.ts'

/**
 * The one rule for a secret in a free-text field that sangam stores, shares or turns into a git
 * name, by the field's kind:
 *
 * - `name`: a name, key, pattern, branch or recipient someone gave sangam (a lane name, a lease
 *   pattern, a handle). Refused: a redacted name would name nothing real, or collide.
 * - `prose`: text someone wrote on purpose (a message, a reason, a title, a note). Refused, as a
 *   post always was: the writer is there to take the secret out, and a redacted sentence would say
 *   something else to every reader, behind the writer's back.
 * - `context`: what sangam read from elsewhere (a transcript, the checkout, the environment: a
 *   cwd, a branch, a session id). Redacted: nobody is there to ask.
 *
 * Refused means nothing is stored and the error names the field and the kind of secret, never the
 * secret. `docs/security.md` lists every field with its kind; `wire-fields.ts` classifies every
 * string field of every record and request.
 */
export type FreeTextKind = 'name' | 'prose' | 'context'

export interface FreeTextField {
  readonly kind: FreeTextKind
  /** What the field is, as an error names it: "the lease reason", "a lease pattern". */
  readonly label: string
}

/** A field that holds no free text, and why (a time, a commit id, a lookup that stores nothing). */
export interface NotFreeText {
  readonly kind: 'not-free-text'
  readonly why: string
}

export type FieldRule = FreeTextField | NotFreeText

/** Whether a field of this kind is refused (rather than redacted) when it holds a secret. */
export function refusesSecrets(kind: FreeTextKind): boolean {
  return kind !== 'context'
}

/**
 * The kinds of secret the scrubber finds in `value` (`github-token`, `slack-bot-token`, …), each
 * once, in order; empty when it finds none.
 */
export function secretKindsIn(value: string): readonly string[] {
  const scrubbed = scrubSecrets(value)
  if (scrubbed === value) return []
  const kinds = [...scrubbed.matchAll(/\[REDACTED:([^\]]+)\]/g)].map((match) => match[1] ?? '')
  const before = new Set([...value.matchAll(/\[REDACTED:([^\]]+)\]/g)].map((match) => match[1]))
  const found = [...new Set(kinds.filter((kind) => kind !== '' && !before.has(kind)))]
  return found.length === 0 ? ['secret'] : found
}

/** "a secret (github-token)", "secrets (github-token, slack-bot-token)". */
export function describeSecretKinds(kinds: readonly string[]): string {
  return kinds.length === 1 ? `a secret (${kinds[0]})` : `secrets (${kinds.join(', ')})`
}

/** The refusal of a value holding a secret: names the field and the kind, never the value. */
export function secretRefusal(label: string, kinds: readonly string[]): SangamError {
  return new SangamError(
    ErrorCode.InvalidInput,
    `${label} holds ${describeSecretKinds(kinds)}; nothing was stored: take it out and try again ` +
      '(sangam keeps no secret in what it stores, shares or names in git)',
    { field: label, kinds },
  )
}

/** Refuses `value` if the scrubber finds a secret in it; returns it unchanged otherwise. */
export function refuseSecret(label: string, value: string): string {
  const kinds = secretKindsIn(value)
  if (kinds.length > 0) throw secretRefusal(label, kinds)
  return value
}

/**
 * Applies the rule to one value of a field: refused for a name or prose, redacted for context.
 * Returns the value to store.
 */
export function applyFreeTextRule(field: FreeTextField, value: string): string {
  if (refusesSecrets(field.kind)) return refuseSecret(field.label, value)
  return scrubSecrets(value)
}
