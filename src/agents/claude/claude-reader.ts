import type { TranscriptReader } from '../transcript-reader.ts'
import { readAssistantRecord } from './assistant-record.ts'
import { readAttachment } from './attachment.ts'
import {
  type ClaudeState,
  initialClaudeState,
  restoreClaudeState,
  serialiseClaudeState,
} from './claude-state.ts'
import { type Envelope, isJsonObject, type JsonObject, readEnvelope } from './envelope.ts'
import { queuedPrompt } from './human-prompt.ts'
import { skippedProgressTypes, skippedRecordTypes } from './skip-table.ts'
import { type Step, skipped, unknownRecord, valueTypeName } from './step.ts'
import { readSystemRecord } from './system-record.ts'
import { promptText, readUserRecord, stepForUserText } from './user-record.ts'
import { classifyUserText } from './user-text.ts'

export type { ClaudeState } from './claude-state.ts'

/**
 * Normalises Claude Code transcript records (`~/.claude/projects/…/*.jsonl`, 1.0.98 → 2.1.332)
 * into events. Every record is accounted for: captured, skipped with a reason, or unknown (new
 * vocabulary, reported by `doctor`). `read` never throws, whatever JSON it is given.
 */
export const claudeReader: TranscriptReader<ClaudeState> = {
  vendor: 'claude',
  initialState: () => initialClaudeState,
  restore: restoreClaudeState,
  serialise: serialiseClaudeState,
  read: readClaudeRecord,
  facts: (state) => ({ sessionId: state.sessionId, cliVersion: state.cliVersion, firstCwd: state.firstCwd }),
}

function readClaudeRecord(state: ClaudeState, record: unknown): Step {
  if (!isJsonObject(record)) return { state, outcome: unknownRecord(valueTypeName(record), record) }
  const type = typeof record.type === 'string' ? record.type : '(missing)'
  // Bookkeeping records are the bulk of a modern file, and some are huge (api-request-blob):
  // decide on the type alone, but still let them carry the session's time forward.
  const skip = skippedRecordTypes.get(type)
  const read = readEnvelope(state, record)
  if (skip !== undefined) return { state: read.state, outcome: skipped(skip) }
  return readTyped(read.state, record, type, read.envelope)
}

function readTyped(state: ClaudeState, record: JsonObject, type: string, envelope: Envelope): Step {
  switch (type) {
    case 'user':
      return readUserRecord(state, record, envelope)
    case 'assistant':
      return readAssistantRecord(state, record, envelope)
    case 'attachment':
      return readAttachment(state, record, envelope)
    case 'system':
      return readSystemRecord(state, record, envelope)
    case 'queue-operation':
      return readQueueOperation(state, record, envelope)
    case 'progress':
      return readProgress(state, record)
    default:
      return { state, outcome: unknownRecord(type, record) }
  }
}

/**
 * The input queue (2.1.12→). An `enqueue` with content is a prompt typed while the agent was busy
 * (and, in `-p` runs, the prompt itself), unless the CLI queued it (`<task-notification>`);
 * dequeue and remove only move prompts along.
 */
function readQueueOperation(state: ClaudeState, record: JsonObject, envelope: Envelope): Step {
  if (record.operation !== 'enqueue') return { state, outcome: skipped('lifecycle') }
  const content = record.content
  const text = typeof content === 'string' ? content : Array.isArray(content) ? promptText(content) : ''
  return stepForUserText(state, envelope, classifyUserText(text), 'human', (words) =>
    queuedPrompt(state, envelope, words),
  )
}

/** `progress` records (2.1.12–2.1.80) stream hook, shell and subagent state; none is conversation. */
function readProgress(state: ClaudeState, record: JsonObject): Step {
  const data = record.data
  const type = isJsonObject(data) && typeof data.type === 'string' ? data.type : '(missing)'
  const reason = skippedProgressTypes.get(type)
  return {
    state,
    outcome: reason === undefined ? unknownRecord(`progress/${type}`, record) : skipped(reason),
  }
}
