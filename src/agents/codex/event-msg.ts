import type { SkipReason } from '../transcript-reader.ts'
import { arrayOr, isObject, type JsonObject, objectOr, text } from './codex-record.ts'
import { type CodexState, capture, eventOf, type Step, skip } from './codex-state.ts'
import { agentSaid, userSaid } from './said.ts'
import { boundChars, contentText, joinBounded } from './text.ts'
import { classifyUserText } from './user-text.ts'

/**
 * `event_msg` payloads (formats.md B2.6) that carry nothing to capture, and why. The UI events
 * that mirror model-visible history are duplicates: the response items are the canonical source
 * of reasoning, tool calls and tool outputs, in every version that writes either.
 */
const skippedEvents: Readonly<Record<string, SkipReason>> = {
  task_started: 'lifecycle',
  task_complete: 'lifecycle',
  turn_started: 'lifecycle',
  turn_complete: 'lifecycle',
  turn_aborted: 'lifecycle',
  context_compacted: 'lifecycle',
  entered_review_mode: 'lifecycle',
  item_started: 'lifecycle',
  hook_started: 'lifecycle',
  hook_completed: 'lifecycle',
  thread_rolled_back: 'lifecycle',
  undo_completed: 'lifecycle',
  apply_patch_approval_request: 'lifecycle',
  collab_agent_spawn_begin: 'lifecycle',
  collab_agent_spawn_end: 'lifecycle',
  collab_agent_interaction_begin: 'lifecycle',
  collab_agent_interaction_end: 'lifecycle',
  collab_waiting_begin: 'lifecycle',
  collab_waiting_end: 'lifecycle',
  collab_close_begin: 'lifecycle',
  collab_close_end: 'lifecycle',
  collab_resume_begin: 'lifecycle',
  collab_resume_end: 'lifecycle',
  sub_agent_activity: 'lifecycle',
  agent_reasoning: 'duplicate',
  agent_reasoning_raw_content: 'duplicate',
  exec_command_begin: 'duplicate',
  exec_command_end: 'duplicate',
  patch_apply_begin: 'duplicate',
  patch_apply_end: 'duplicate',
  mcp_tool_call_begin: 'duplicate',
  mcp_tool_call_end: 'duplicate',
  web_search_begin: 'duplicate',
  web_search_end: 'duplicate',
  view_image_tool_call: 'duplicate',
  image_generation_begin: 'duplicate',
  image_generation_end: 'duplicate',
  dynamic_tool_call_request: 'duplicate',
  dynamic_tool_call_response: 'duplicate',
  token_count: 'metadata',
  thread_name_updated: 'metadata',
  thread_settings_applied: 'metadata',
  thread_goal_updated: 'metadata',
  guardian_assessment: 'metadata',
}

/**
 * `item_completed` items (0.146+, and 0.171's paginated history). Messages are read like their
 * event and response-item copies; tool items mirror the response items' calls and outputs.
 */
const skippedItems: Readonly<Record<string, SkipReason>> = {
  Reasoning: 'duplicate',
  CommandExecution: 'duplicate',
  FileChange: 'duplicate',
  McpToolCall: 'duplicate',
  DynamicToolCall: 'duplicate',
  CollabAgentToolCall: 'duplicate',
  FunctionCallOutput: 'duplicate',
  WebSearch: 'duplicate',
  ImageView: 'duplicate',
  ImageGeneration: 'duplicate',
  Extension: 'duplicate',
  HookPrompt: 'duplicate',
  Plan: 'duplicate',
  ExitedReviewMode: 'duplicate',
  EnteredReviewMode: 'lifecycle',
  SubAgentActivity: 'lifecycle',
  ContextCompaction: 'lifecycle',
}

const itemTextTypes = new Set(['text', 'Text'])

/** Returns null for a payload type (or item type) this reader does not know. */
export function readEventMsg(state: CodexState, payload: JsonObject): Step | null {
  switch (payload.type) {
    case 'user_message': {
      const message = text(payload.message)
      return userSaid(state, 'e', classifyUserText(boundChars(message ?? ''), 'prompt'), message !== null)
    }
    case 'agent_message':
      return agentSaid(state, 'e', boundChars(text(payload.message) ?? ''))
    case 'item_completed':
      return readItem(state, objectOr(payload.item))
    case 'exited_review_mode': {
      const review = reviewText(objectOr(payload.review_output))
      return review === '' ? skip(state, 'lifecycle') : capture(state, [eventOf(state, 'system', review)])
    }
    case 'error': {
      // What stopped a turn (a dropped stream, an exhausted context window) is worth recalling.
      const message = text(payload.message)
      return message === null
        ? skip(state, 'empty')
        : capture(state, [eventOf(state, 'system', boundChars(message))])
    }
    default:
      if (typeof payload.type !== 'string' || !Object.hasOwn(skippedEvents, payload.type)) return null
      return skip(state, skippedEvents[payload.type] ?? 'lifecycle')
  }
}

function readItem(state: CodexState, item: JsonObject | null): Step | null {
  if (item === null) return null
  switch (item.type) {
    case 'UserMessage': {
      const message = contentText(item.content, itemTextTypes)
      return userSaid(state, 'i', classifyUserText(message, 'prompt'), message !== '')
    }
    case 'AgentMessage':
      return agentSaid(state, 'i', contentText(item.content, itemTextTypes))
    default: {
      if (typeof item.type !== 'string' || !Object.hasOwn(skippedItems, item.type)) return null
      return skip(state, skippedItems[item.type] ?? 'duplicate')
    }
  }
}

/** The findings of a `/review` run: the verdict, then each finding's title, place and body. */
function reviewText(output: JsonObject | null): string {
  if (output === null) return ''
  const pieces = [text(output.overall_correctness) ?? '', text(output.overall_explanation) ?? '']
  for (const finding of arrayOr(output.findings)) {
    if (!isObject(finding)) continue
    const location = objectOr(finding.code_location)
    const range = objectOr(location?.line_range)
    const path = text(location?.absolute_file_path)
    const place = path === null ? '' : `${path}:${lineNumber(range?.start)}-${lineNumber(range?.end)}`
    pieces.push([text(finding.title), place, text(finding.body)].filter((piece) => piece).join('\n'))
  }
  return joinBounded(pieces, '\n\n')
}

function lineNumber(value: unknown): string {
  return typeof value === 'number' ? String(value) : ''
}
