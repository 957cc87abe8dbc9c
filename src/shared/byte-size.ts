/**
 * Byte sizes as people write and read them. Units are binary multiples, named as most people say
 * them ("1 GB" is 1024³ bytes), so the figure a flag takes is the figure the server prints back.
 */
const units = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3, tb: 1024 ** 4 } as const

/**
 * `1073741824`, `512MB`, `1.5 GB`, `2GiB`, `64k`: whole bytes, or null when `text` is not a size.
 * Case and a space before the unit do not matter; `KiB`/`MiB`/`GiB`/`TiB` are the same units.
 */
export function parseByteSize(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(i?b)?\s*$/i.exec(text)
  if (match === null) return null
  const [, digits = '', prefix = '', suffix] = match
  if (prefix === '' && suffix !== undefined && suffix.toLowerCase() === 'ib') return null
  const unit = units[`${prefix.toLowerCase()}b` as keyof typeof units]
  const bytes = Math.round(Number(digits) * unit)
  return Number.isSafeInteger(bytes) ? bytes : null
}

/** `912 KB`, `1.00 GB`, `40 B`: three significant figures at most, never four digits. */
export function formatByteSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`
  const names = ['KB', 'MB', 'GB', 'TB'] as const
  let value = bytes / 1024
  let index = 0
  while (value >= 999.5 && index < names.length - 1) {
    value /= 1024
    index++
  }
  const shown = value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2)
  return `${shown} ${names[index]}`
}
