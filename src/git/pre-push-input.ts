/**
 * What git writes on a `pre-push` hook's stdin (githooks(5)): one line per ref to update,
 * `<local-ref> SP <local-sha> SP <remote-ref> SP <remote-sha>`. A remote sha of all zeros means the
 * remote ref is new; a local ref `(delete)` with a zero sha is a deletion. Object names are 40 hex
 * digits, or 64 in a SHA-256 repository. Stdin may be empty (nothing to update).
 */
export interface RefUpdate {
  readonly localRef: string
  readonly localSha: string
  readonly remoteRef: string
  /** null when the remote does not have this ref yet. */
  readonly remoteSha: string | null
  readonly kind: 'create' | 'update' | 'delete'
}

export interface PrePushInput {
  readonly updates: readonly RefUpdate[]
  /** Lines that do not have the documented shape; the gate reports them instead of guessing. */
  readonly malformed: readonly string[]
}

export function parsePrePushInput(text: string): PrePushInput {
  const updates: RefUpdate[] = []
  const malformed: string[] = []
  for (const rawLine of text.split('\n')) {
    const line = rawLine.trim()
    if (line === '') continue
    const update = parseLine(line)
    if (update === null) malformed.push(line)
    else updates.push(update)
  }
  return { updates, malformed }
}

function parseLine(line: string): RefUpdate | null {
  const fields = line.split(/\s+/)
  if (fields.length !== 4) return null
  const [localRef = '', localSha = '', remoteRef = '', remoteSha = ''] = fields
  if (!isObjectName(localSha) || !isObjectName(remoteSha)) return null
  const remoteIsNew = isZero(remoteSha)
  if (localRef === '(delete)' || isZero(localSha)) {
    return { localRef, localSha, remoteRef, remoteSha: remoteIsNew ? null : remoteSha, kind: 'delete' }
  }
  return {
    localRef,
    localSha,
    remoteRef,
    remoteSha: remoteIsNew ? null : remoteSha,
    kind: remoteIsNew ? 'create' : 'update',
  }
}

function isObjectName(value: string): boolean {
  return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(value)
}

function isZero(sha: string): boolean {
  return /^0+$/.test(sha)
}
