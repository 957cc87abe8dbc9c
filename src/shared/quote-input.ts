/** How much of a refused value an error message echoes. */
export const quotedInputChars = 80

/**
 * A user's value as an error message echoes it: quoted, with control characters (a NUL byte)
 * escaped so that they show, and cut at `quotedInputChars` with its full length said, so that a
 * 100,000-character paste comes back as one readable line rather than whole.
 */
export function quoteInput(value: string): string {
  const chars = [...value]
  if (chars.length <= quotedInputChars) return JSON.stringify(value)
  return `${JSON.stringify(chars.slice(0, quotedInputChars).join(''))}… (${chars.length.toLocaleString('en-US')} characters)`
}
