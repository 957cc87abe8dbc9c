import { parse } from 'smol-toml'
import { isRecord } from '../../../shared/is-record.ts'
import { ErrorCode, SangamError } from '../../../shared/sangam-error.ts'

/**
 * Codex runs a non-managed hook only once it is trusted, and records trust in the user's
 * `$CODEX_HOME/config.toml` as
 *
 *   [hooks.state."<hook key>"]
 *   trusted_hash = "sha256:…"
 *
 * — the record Codex's own `/hooks` review writes. The file is the user's: it is edited as text
 * (a line replaced, or a table appended), never parsed and re-serialised, so comments, order and
 * formatting survive. The TOML parser is used only to read current values and to prove that the
 * edited text still parses and says what we meant before anything is written.
 */
export interface TrustRecord {
  readonly key: string
  readonly hash: string
}

export interface TrustEdit {
  readonly text: string
  /** Keys whose record was added or rewritten. */
  readonly changed: readonly string[]
}

export function withTrustRecords(text: string, records: readonly TrustRecord[], file: string): TrustEdit {
  const current = trustedHashes(text, file)
  const lines = text.split('\n')
  const appended: string[] = []
  const changed: string[] = []
  for (const record of records) {
    if (current.get(record.key) === record.hash) continue
    const assignment = `trusted_hash = ${JSON.stringify(record.hash)}`
    const header = findHeader(lines, record.key)
    const existing = header === -1 ? -1 : findAssignment(lines, header)
    if (header === -1) appended.push(`${headerFor(record.key)}\n${assignment}\n`)
    else if (existing === -1) lines.splice(header + 1, 0, assignment)
    else lines[existing] = assignment
    changed.push(record.key)
  }
  const kept = lines.join('\n')
  const separated = kept === '' || kept.endsWith('\n') ? kept : `${kept}\n`
  const edited = appended.reduce((out, block) => (out === '' ? block : `${out}\n${block}`), separated)
  verify(edited, records, file)
  return { text: edited, changed }
}

/** Removes the trust records of `keys`; a table left with no other setting goes with them. */
export function withoutTrustRecords(text: string, keys: readonly string[], file: string): TrustEdit {
  trustedHashes(text, file)
  const lines = text.split('\n')
  const changed: string[] = []
  for (const key of keys) {
    const header = findHeader(lines, key)
    if (header === -1) continue
    const assignment = findAssignment(lines, header)
    if (assignment !== -1) lines.splice(assignment, 1)
    const end = tableEnd(lines, header)
    if (lines.slice(header + 1, end).every((line) => line.trim() === '')) {
      const start = header > 0 && lines[header - 1]?.trim() === '' ? header - 1 : header
      lines.splice(start, end - start, '')
    }
    changed.push(key)
  }
  const edited = lines.join('\n')
  const left = trustedHashes(edited, file)
  for (const key of keys) {
    if (left.has(key)) throw cannotEdit(file, `the trust record of ${key} is not in a form sangam can remove`)
  }
  return { text: edited, changed }
}

/** Every `hooks.state."<key>".trusted_hash` the file holds. */
export function trustedHashes(text: string, file: string): Map<string, string> {
  let parsed: unknown
  try {
    parsed = parse(text)
  } catch (error) {
    throw new SangamError(
      ErrorCode.InvalidInput,
      `${file} is not valid TOML (${(error as Error).message.split('\n')[0]}); fix it by hand, sangam left it unchanged`,
      { file },
    )
  }
  const state = isRecord(parsed) && isRecord(parsed.hooks) ? parsed.hooks.state : undefined
  const hashes = new Map<string, string>()
  if (!isRecord(state)) return hashes
  for (const [key, value] of Object.entries(state)) {
    if (isRecord(value) && typeof value.trusted_hash === 'string') hashes.set(key, value.trusted_hash)
  }
  return hashes
}

function verify(text: string, records: readonly TrustRecord[], file: string): void {
  const hashes = trustedHashes(text, file)
  for (const record of records) {
    if (hashes.get(record.key) !== record.hash) {
      throw cannotEdit(file, `the trust record of ${record.key} is not in a form sangam can rewrite`)
    }
  }
}

function headerFor(key: string): string {
  return `[hooks.state.${JSON.stringify(key)}]`
}

const headerPattern = /^\s*\[\s*hooks\s*\.\s*state\s*\.\s*("(?:[^"\\]|\\.)*"|'[^']*')\s*\]\s*(?:#.*)?$/

function findHeader(lines: readonly string[], key: string): number {
  return lines.findIndex((line) => {
    const quoted = headerPattern.exec(line)?.[1]
    if (quoted === undefined) return false
    return (quoted.startsWith("'") ? quoted.slice(1, -1) : decodeBasicString(quoted)) === key
  })
}

function findAssignment(lines: readonly string[], header: number): number {
  const end = tableEnd(lines, header)
  for (let index = header + 1; index < end; index++) {
    if (/^\s*trusted_hash\s*=/.test(lines[index] ?? '')) return index
  }
  return -1
}

/** Index of the next table header after `header`, or the end of the file. */
function tableEnd(lines: readonly string[], header: number): number {
  for (let index = header + 1; index < lines.length; index++) {
    if (/^\s*\[/.test(lines[index] ?? '')) return index
  }
  return lines.length
}

function decodeBasicString(quoted: string): string | null {
  try {
    return JSON.parse(quoted) as string
  } catch {
    return null
  }
}

function cannotEdit(file: string, why: string): SangamError {
  return new SangamError(
    ErrorCode.InvalidInput,
    `${file}: ${why}; review the hooks in Codex (/hooks) instead. sangam left the file unchanged`,
    { file },
  )
}
