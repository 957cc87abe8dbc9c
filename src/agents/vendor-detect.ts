import { closeSync, openSync } from 'node:fs'
import { basename } from 'node:path'
import { ByteFingerprint } from './byte-fingerprint.ts'
import { parseJsonValues } from './json-values.ts'
import { JsonlFileReader } from './jsonl-file-reader.ts'
import type { TranscriptVendor } from './transcript-reader.ts'

const codexEnvelopeTypes = new Set([
  'session_meta',
  'response_item',
  'event_msg',
  'turn_context',
  'compacted',
  'world_state',
  'inter_agent_communication',
  'inter_agent_communication_metadata',
])
const codexLegacyItemTypes = new Set(['message', 'reasoning', 'function_call', 'function_call_output'])
/** sangam's journal of opencode's sessions: `{"type":"part","part":{…}}` (opencode-journal.ts). */
const opencodeJournalTypes = new Set(['session', 'message', 'part'])
const claudeKeys = ['sessionId', 'leafUuid', 'parentUuid', 'uuid']

/** How many non-blank lines of a file are looked at before giving up on its content. */
const linesToInspect = 50

/**
 * Which vendor wrote one transcript record, from its shape alone (formats.md B1.2, B2.2, B2.12);
 * null when the record says nothing either way.
 */
export function vendorOfRecord(record: unknown): TranscriptVendor | null {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return null
  const fields = record as Record<string, unknown>
  const type = typeof fields.type === 'string' ? fields.type : null
  if (type !== null && codexEnvelopeTypes.has(type) && typeof fields.payload === 'object') return 'codex'
  // Before Claude's keys: Gemini CLI's metadata line has a `sessionId` too.
  if ('projectHash' in fields && 'sessionId' in fields) return 'gemini'
  if (claudeKeys.some((key) => key in fields)) return 'claude'
  if ('record_type' in fields) return 'codex'
  if (type === null && 'id' in fields && ('instructions' in fields || 'git' in fields)) return 'codex'
  if (type !== null && codexLegacyItemTypes.has(type)) return 'codex'
  if (isGeminiRecord(fields, type)) return 'gemini'
  if (type !== null && opencodeJournalTypes.has(type) && typeof fields[type] === 'object') return 'opencode'
  return null
}

/**
 * The vendor of a transcript file anywhere on disk (`doctor --transcripts`): decided by the first
 * records that show a vendor's shape, else by the file name (`rollout-*.jsonl` is Codex's), else
 * null.
 */
export function detectVendor(path: string): TranscriptVendor | null {
  return vendorOfContent(path) ?? vendorOfName(path)
}

function vendorOfName(path: string): TranscriptVendor | null {
  if (/^rollout-.*\.jsonl$/.test(basename(path))) return 'codex'
  if (path.includes('/.claude/projects/')) return 'claude'
  if (/\/chats\/(session-[^/]*|[^/]+\/[^/]+)\.jsonl$/.test(path)) return 'gemini'
  if (path.includes('/opencode-journal/')) return 'opencode'
  return null
}

function vendorOfContent(path: string): TranscriptVendor | null {
  const fd = openSync(path, 'r')
  try {
    const reader = new JsonlFileReader(fd, 0, ByteFingerprint.empty(), { chunkBytes: 256 * 1024 })
    let inspected = 0
    for (let line = reader.next(true); line && inspected < linesToInspect; line = reader.next(true)) {
      if (line.text === null || line.text.trim() === '') continue
      inspected++
      for (const value of parseJsonValues(line.text) ?? []) {
        const vendor = vendorOfRecord(value)
        if (vendor) return vendor
      }
    }
    return null
  } finally {
    closeSync(fd)
  }
}

/**
 * Gemini CLI's session records (0.39+) other than the metadata line: a `$set`/`$rewindTo` patch, or a message whose `type` is `user`/`gemini`/`info`/`error`/`warning`.
 */
function isGeminiRecord(fields: Record<string, unknown>, type: string | null): boolean {
  if ('$set' in fields || '$rewindTo' in fields) return true
  return type !== null && geminiMessageTypes.has(type) && typeof fields.id === 'string' && 'content' in fields
}

const geminiMessageTypes = new Set(['user', 'gemini', 'info', 'error', 'warning'])
