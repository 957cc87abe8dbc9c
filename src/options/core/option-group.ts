import type { Checked, OptionType } from './option-type.ts'

/** One project option: its value type, its default and what it does. */
export interface OptionDefinition<T> {
  /** Its name within its group, kebab-case; the full name is `<group>.<name>` (`leases.auto-lease`). */
  readonly name: string
  readonly type: OptionType<T>
  readonly default: T
  /** One line: what it does, as `options` shows it. */
  readonly description: string
}

/**
 * A feature's project options, stored as one JSON object under one key of the project's `setting`
 * table, field by field as someone set them; unset fields take the defaults, so a default changed
 * in a later sangam reaches every project. Adding an option is adding an entry to its group.
 */
export interface OptionGroup<Values extends object> {
  /** The `setting` key the group is stored under, and the prefix of its options' full names. */
  readonly key: string
  /** How messages name the stored group: "the project's lease settings". */
  readonly label: string
  /** What a person runs to set unreadable stored values again. */
  readonly repair: string
  /**
   * What an unreadable stored value means: `refuse` (a clear error until it is set again) where
   * guessing could do harm, `default` (each unreadable field takes its default) where the default
   * is the safe side (sharing less).
   */
  readonly unreadable: 'refuse' | 'default'
  /** Keyed by the field the value is stored (and used in code) under. */
  readonly options: { readonly [Field in keyof Values]: OptionDefinition<Values[Field]> }
}

/** Any group, for code that walks the catalog. */
// biome-ignore lint/suspicious/noExplicitAny: a group of any values; each group is typed where defined
export type AnyOptionGroup = OptionGroup<any>

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

export function defaultsOf<Values extends object>(group: OptionGroup<Values>): Values {
  const values: Partial<Mutable<Values>> = {}
  for (const field of fieldsOf(group)) values[field] = group.options[field].default
  return Object.freeze(values) as Values
}

/**
 * The fields set in a stored value (unknown fields, from a newer sangam, are dropped), or why it is
 * unreadable. Under `unreadable: 'default'` nothing is unreadable: a bad field is left unset.
 */
export function readStored<Values extends object>(
  group: OptionGroup<Values>,
  stored: unknown,
): Checked<Partial<Values>> {
  const lenient = group.unreadable === 'default'
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored))
    return lenient ? { ok: true, value: {} } : { ok: false, problem: 'not an object' }
  const fields = stored as Record<string, unknown>
  const values: Partial<Mutable<Values>> = {}
  for (const field of fieldsOf(group)) {
    const value = fields[field as string]
    if (value === undefined) continue
    const checked = group.options[field].type.check(value)
    if (checked.ok) values[field] = checked.value
    else if (!lenient) return { ok: false, problem: `${String(field)} ${checked.problem}` }
  }
  return { ok: true, value: values }
}

export function withDefaults<Values extends object>(
  group: OptionGroup<Values>,
  set: Partial<Values>,
): Values {
  const values: Partial<Mutable<Values>> = {}
  for (const field of fieldsOf(group)) values[field] = set[field] ?? group.options[field].default
  return values as Values
}

export function fieldsOf<Values extends object>(group: OptionGroup<Values>): (keyof Values)[] {
  return Object.keys(group.options) as (keyof Values)[]
}
