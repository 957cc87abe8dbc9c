import { isRung, type Rung, rungs } from '../protocol/rung.ts'

/** A value checked, or what is wrong with it: `problem` completes "<option> …". */
export type Checked<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problem: string }

/**
 * The type of a project option's value. Plain type guards, not zod: the edit hook reads the lease
 * options on every edit, and loading zod would cost it more than everything else it does
 * (docs/performance.md).
 */
export interface OptionType<T> {
  /** The values it takes, as `options` shows them: `off | advise | warn | refuse`. */
  readonly describe: string
  /** Checks a stored (JSON) value. */
  check(value: unknown): Checked<T>
  /** Parses what a person typed (`option-set <name> <value>`). */
  fromText(text: string): Checked<T>
}

const ok = <T>(value: T): Checked<T> => ({ ok: true, value })
const problem = <T>(text: string): Checked<T> => ({ ok: false, problem: text })

/** A rule's rung: every rule's loudness is an option of this type. */
export const rungType: OptionType<Rung> = {
  describe: rungs.join(' | '),
  check: (value) => (isRung(value) ? ok(value) : problem(`is one of ${rungs.join(', ')}`)),
  fromText: (text) => rungType.check(text.trim()),
}

export const booleanType: OptionType<boolean> = {
  describe: 'true | false',
  check: (value) => (typeof value === 'boolean' ? ok(value) : problem('is not true or false')),
  fromText(text) {
    const word = text.trim().toLowerCase()
    if (word === 'true') return ok(true)
    if (word === 'false') return ok(false)
    return problem('is not true or false')
  },
}

export const positiveIntegerType: OptionType<number> = {
  describe: 'a positive integer',
  check: (value) =>
    typeof value === 'number' && Number.isSafeInteger(value) && value > 0
      ? ok(value)
      : problem('is not a positive integer'),
  fromText: (text) =>
    /^\s*\d+\s*$/.test(text) ? positiveIntegerType.check(Number(text)) : problem('is not a positive integer'),
}

/** Free text (a command line); trimmed, and empty means "none". */
export const textType: OptionType<string> = {
  describe: 'text ("" for none)',
  check: (value) => (typeof value === 'string' ? ok(value.trim()) : problem('is not text')),
  fromText: (text) => ok(text.trim()),
}
