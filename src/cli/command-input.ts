import { quoteInput } from '../shared/quote-input.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import type { AnyCommandSpec, ArgumentDecl, CommandInput, CommandSpec, OptionDecl } from './command.ts'

/**
 * The kinds of option and argument a command declares, each a small parser from what commander
 * collected to the type its `run` receives. A refused value is a USAGE error naming its flag.
 *
 * Not zod: the registry is loaded by every `sangam` process, and zod is 120 ms of CPU at start-up
 * that no command's own work needs (docs/performance.md, "CLI start-up"; docs/decisions.md).
 * Parsers that need more of the program (a date, a duration) import it when they run.
 */

/**
 * Defines a command, checking that its implementation's `run` takes what its input declares.
 * (Here, not in command.ts, which holds only types: every `sangam` process loads this file.)
 */
export function defineCommand<I extends CommandInput>(spec: CommandSpec<I>): AnyCommandSpec {
  return spec
}

/** Keeps the literal types of a command's declared input, for `CommandRun<typeof xInput>`. */
export function defineInput<const I extends CommandInput>(input: I): I {
  return input
}

/** `--force`: true when given. A lone `--no-x` declared this way is true unless `--no-x` is given. */
export function flag(flags: string, description: string): OptionDecl<boolean> {
  return { flags, description, parse: (raw) => raw === true }
}

/** `--x` and `--no-x`: true or false when one is given, undefined when neither is. */
export function toggle(
  flags: string,
  description: string,
  negation: { readonly flags: string; readonly description: string },
): OptionDecl<boolean | undefined> {
  return { flags, description, negation, parse: (raw) => (typeof raw === 'boolean' ? raw : undefined) }
}

/** `--reason <text>`: the text as given. */
export function text(flags: string, description: string): OptionDecl<string | undefined> {
  return {
    flags,
    description,
    parse: (raw, flag) => (raw === undefined ? undefined : commandLineText(String(raw), flag)),
  }
}

/** `--transcripts <file...>`: every value given. */
export function texts(flags: string, description: string): OptionDecl<string[] | undefined> {
  return {
    flags,
    description,
    parse: (raw, flag) =>
      raw === undefined ? undefined : [raw].flat().map((value) => commandLineText(String(value), flag)),
  }
}

/** `--to <recipient>` given any number of times: every value, in order (also comma-separated). */
export function repeated(flags: string, description: string): OptionDecl<string[]> {
  return {
    flags,
    description,
    repeatable: true,
    parse: (raw, flag) =>
      (raw === undefined ? [] : [raw].flat())
        .flatMap((value) => String(value).split(','))
        .map((value) => commandLineText(value.trim(), flag))
        .filter((value) => value !== ''),
  }
}

/** `--limit <n>`: a whole number in decimal digits within `[min, max]` (`0x10`, `1e3`, `16.0` are refused). */
export function integer(
  flags: string,
  description: string,
  range: { readonly min: number; readonly max: number },
): OptionDecl<number | undefined> {
  return {
    flags,
    description,
    parse(raw, flag) {
      if (raw === undefined) return undefined
      const value = String(raw).trim()
      const number = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN
      if (number >= range.min && number <= range.max) return number
      throw usage(
        `${flag} takes a whole number from ${range.min} to ${range.max}, in decimal digits; got ${quoteInput(String(raw))}`,
      )
    },
  }
}

/** `--vendor <vendor>`: one of `values`, in any case. */
export function choice<const V extends string>(
  flags: string,
  description: string,
  values: readonly V[],
): OptionDecl<V | undefined> {
  return {
    flags,
    description,
    parse: (raw, flag) => (raw === undefined ? undefined : oneOf(String(raw), values, flag, '')),
  }
}

/** `--kind <kinds>`: comma-separated values of `values`, in any case, `-` standing for `_`. */
export function choices<const V extends string>(
  flags: string,
  description: string,
  values: readonly V[],
): OptionDecl<V[] | undefined> {
  return {
    flags,
    description,
    parse: (raw, flag) =>
      raw === undefined
        ? undefined
        : String(raw)
            .split(',')
            .map((each) => oneOf(each.replaceAll('-', '_'), values, flag, ' (comma-separated)')),
  }
}

/**
 * `--since <when>`: `14d`, `12h`, `30m`, or a real calendar date or date-time (and `all` where
 * `all` is allowed), checked here so that the error names this flag; `run` gets the text.
 */
export function when(
  flags: string,
  description: string,
  forms: { readonly all: boolean } = { all: false },
): OptionDecl<string | undefined> {
  return {
    flags,
    description,
    async parse(raw, flag) {
      if (raw === undefined) return undefined
      const value = commandLineText(String(raw), flag).trim()
      if (forms.all && value.toLowerCase() === 'all') return value
      const { parseSince } = await import('../shared/time-window.ts')
      asUsage(() => parseSince(value, 0, flag))
      return value
    },
  }
}

/** `--ttl <duration>`: `30m`, `2h`, `1h30m`, `1d`, as milliseconds. */
export function duration(flags: string, description: string): OptionDecl<number | undefined> {
  return {
    flags,
    description,
    async parse(raw, flag) {
      if (raw === undefined) return undefined
      const { parseTtl } = await import('../leases/core/expiry.ts')
      try {
        return parseTtl(commandLineText(String(raw), flag))
      } catch (error) {
        if (!(error instanceof SangamError)) throw error
        throw usage(
          `${flag} takes a duration like 30m, 2h, 1h30m or 1d, from 10s to 7d; got ${quoteInput(String(raw))}`,
        )
      }
    },
  }
}

/** `--max-project-size <size>`: `512MB`, `2GB`, `1073741824`, as whole bytes (at least `min`). */
export function byteSize(flags: string, description: string, min: number): OptionDecl<number | undefined> {
  return {
    flags,
    description,
    async parse(raw, flag) {
      if (raw === undefined) return undefined
      const { formatByteSize, parseByteSize } = await import('../shared/byte-size.ts')
      const bytes = parseByteSize(commandLineText(String(raw), flag))
      if (bytes !== null && bytes >= min) return bytes
      throw usage(
        `${flag} takes a size like 512MB, 2GB or a number of bytes, at least ${formatByteSize(min)}; got ${quoteInput(String(raw))}`,
      )
    },
  }
}

/** `<event-id>`: one required value. */
export function argument(name: string, description: string): ArgumentDecl<string> {
  return {
    name,
    description,
    required: true,
    variadic: false,
    parse: (raw, label) => commandLineText(String(raw ?? ''), label),
  }
}

/** `[connection]`: one value, or undefined when omitted. */
export function optionalArgument(name: string, description: string): ArgumentDecl<string | undefined> {
  return {
    name,
    description,
    required: false,
    variadic: false,
    parse: (raw, label) => (raw === undefined ? undefined : commandLineText(String(raw), label)),
  }
}

/** `<query...>` or `[pattern...]`: every value given, in order. */
export function words(
  name: string,
  description: string,
  { required }: { readonly required: boolean },
): ArgumentDecl<string[]> {
  return {
    name,
    description,
    required,
    variadic: true,
    parse: (raw, label) =>
      (raw === undefined ? [] : [raw].flat()).map((value) => commandLineText(String(value), label)),
  }
}

/**
 * Text from the command line. A NUL byte cannot be in a path, a pattern or a word anyone types,
 * and SQLite and git read it as the end of the text: it is refused, not passed on.
 */
function commandLineText(value: string, label: string): string {
  if (value.includes('\u0000')) throw usage(`${label} contains a NUL byte; got ${quoteInput(value)}`)
  return value
}

function oneOf<V extends string>(raw: string, values: readonly V[], flag: string, how: string): V {
  const value = raw.trim().toLowerCase()
  const found = values.find((each) => each === value)
  if (found !== undefined) return found
  throw usage(`${flag} takes ${values.join(', ')}${how}; got ${quoteInput(raw.trim())}`)
}

/** Runs a check whose refusal (an INVALID_INPUT from the core) is, on the command line, a usage error. */
function asUsage<T>(check: () => T): T {
  try {
    return check()
  } catch (error) {
    if (error instanceof SangamError) throw usage(error.message)
    throw error
  }
}

function usage(message: string): SangamError {
  return new SangamError(ErrorCode.Usage, message)
}
