import type { ClaudeState } from './claude-state.ts'
import { type Envelope, isJsonObject, type JsonObject, makeEvent, stringField } from './envelope.ts'
import { skippedSystemSubtypes } from './skip-table.ts'
import { capturedOr, oneEvent, type Step, skipped, unknownRecord } from './step.ts'
import { classifyUserText } from './user-text.ts'

/**
 * `type: "system"` records are the CLI talking: compaction, local slash commands, API errors,
 * recaps. Those worth recalling become `system` events; timings and hook summaries are skipped.
 */
export function readSystemRecord(state: ClaudeState, record: JsonObject, envelope: Envelope): Step {
  const subtype = typeof record.subtype === 'string' ? record.subtype : '(missing)'
  switch (subtype) {
    case 'compact_boundary':
      return oneEvent(state, envelope, 'system', compactionText(record))
    case 'local_command':
      return readLocalCommand(state, record, envelope)
    case 'api_error':
      return oneEvent(state, envelope, 'system', apiErrorText(record))
    case 'away_summary':
    case 'informational':
      return oneEvent(state, envelope, 'system', typeof record.content === 'string' ? record.content : '')
  }
  const reason = skippedSystemSubtypes.get(subtype)
  return {
    state,
    outcome: reason === undefined ? unknownRecord(`system/${subtype}`, record) : skipped(reason),
  }
}

/**
 * 2.1.80→ writes local slash commands (`/login`, `/exit`) as system records; older versions wrote
 * the same invocation as a `user` record. Either way the human typed it, so the invocation is
 * `human` and its output `system`. A local command runs at once, even while the agent is busy, so
 * it is neither queued nor an echo.
 */
function readLocalCommand(state: ClaudeState, record: JsonObject, envelope: Envelope): Step {
  const judged = classifyUserText(typeof record.content === 'string' ? record.content : '')
  switch (judged.kind) {
    case 'human':
      return { state, outcome: capturedOr([makeEvent(envelope, 'human', judged.text)], 'empty') }
    case 'system':
    case 'shell-output':
      return oneEvent(state, envelope, 'system', judged.text)
    case 'interrupted':
      return { state, outcome: skipped('lifecycle') }
    case 'injected':
    case 'empty':
      return { state, outcome: skipped(judged.kind) }
  }
}

/** "Conversation compacted (auto, 155250 tokens before)". */
function compactionText(record: JsonObject): string {
  const content = stringField(record.content) ?? 'Conversation compacted'
  const meta = isJsonObject(record.compactMetadata) ? record.compactMetadata : {}
  const details = [
    stringField(meta.trigger),
    typeof meta.preTokens === 'number' ? `${meta.preTokens} tokens before` : null,
  ].filter((detail) => detail !== null)
  return details.length === 0 ? content : `${content} (${details.join(', ')})`
}

/** "API error (retry 2/10): Overloaded"; `error` is an object in the versions seen, a string in others. */
function apiErrorText(record: JsonObject): string {
  const error = record.error
  const message = isJsonObject(error)
    ? (stringField(error.formatted) ?? stringField(error.message) ?? '')
    : (stringField(error) ?? stringField(record.content) ?? '')
  const attempt = typeof record.retryAttempt === 'number' ? record.retryAttempt : null
  const max = typeof record.maxRetries === 'number' ? record.maxRetries : null
  const retry = attempt === null ? '' : max === null ? ` (retry ${attempt})` : ` (retry ${attempt}/${max})`
  return message === '' ? '' : `API error${retry}: ${message}`
}
