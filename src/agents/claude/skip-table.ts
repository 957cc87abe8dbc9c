import type { SkipReason } from '../transcript-reader.ts'

/**
 * Claude Code record types and subtypes that are understood and deliberately not stored, with the
 * reason. A type in none of these tables and not handled by the reader is `unknown`, so `doctor`
 * shows new vocabulary instead of it vanishing. Sources: the corpus (1.0.98 → 2.1.332),
 * formats.md B1.3 and real-agents.md §3.4.
 */

/** Top-level record types: bookkeeping next to the conversation. */
export const skippedRecordTypes: ReadonlyMap<string, SkipReason> = new Map<string, SkipReason>([
  ['summary', 'metadata'],
  ['file-history-snapshot', 'metadata'],
  ['file-history-delta', 'metadata'],
  ['permission-mode', 'metadata'],
  ['mode', 'metadata'],
  ['last-prompt', 'metadata'],
  ['ai-title', 'metadata'],
  ['custom-title', 'metadata'],
  ['agent-name', 'metadata'],
  ['agent-setting', 'metadata'],
  ['pr-link', 'metadata'],
  ['bridge-session', 'metadata'],
  ['worktree-state', 'metadata'],
  ['cost-state', 'metadata'],
  ['tools-used', 'metadata'],
  ['atis-latch', 'metadata'],
  ['api-request', 'metadata'],
  ['api-request-shape', 'metadata'],
  // A copy of what was sent to the model (system prompt, reminders, the whole history): never index it.
  ['api-request-blob', 'metadata'],
])

/** `attachment.type` values with no recall value; the handled ones are in claude-attachment.ts. */
export const skippedAttachmentTypes: ReadonlyMap<string, SkipReason> = new Map<string, SkipReason>([
  ['skill_listing', 'metadata'],
  ['deferred_tools_delta', 'metadata'],
  ['agent_listing_delta', 'metadata'],
  ['mcp_instructions_delta', 'metadata'],
  ['environment', 'metadata'],
  ['model', 'metadata'],
  ['date', 'metadata'],
  ['date_change', 'metadata'],
  ['session_context', 'metadata'],
  ['auto_mode', 'metadata'],
  ['auto_mode_exit', 'metadata'],
  ['plan_mode', 'metadata'],
  ['plan_mode_exit', 'metadata'],
  ['plan_mode_reentry', 'metadata'],
  ['remote_session_change', 'metadata'],
  ['prompt_snapshot', 'metadata'],
  ['command_permissions', 'metadata'],
  ['goal_status', 'metadata'],
  ['output_style', 'metadata'],
  ['budget_usd', 'metadata'],
  ['max_turns_reached', 'metadata'],
  ['ultra_effort_enter', 'metadata'],
  ['ultra_effort_exit', 'metadata'],
  ['hook_permission_decision', 'metadata'],
  ['hook_cancelled', 'lifecycle'],
  ['hook_stopped_continuation', 'lifecycle'],
  // Shown to the human by the CLI, not sent to the model; the hook's own output is captured elsewhere.
  ['hook_system_message', 'injected'],
  // Copies of files, memories and reminders the CLI put next to a turn: their source is elsewhere.
  ['task_reminder', 'injected'],
  ['todo_reminder', 'injected'],
  ['edited_text_file', 'injected'],
  ['edited_image_file', 'injected'],
  ['file', 'injected'],
  ['directory', 'injected'],
  ['compact_file_reference', 'injected'],
  ['already_read_file', 'injected'],
  ['nested_memory', 'injected'],
  ['relevant_memories', 'injected'],
  ['invoked_skills', 'injected'],
  ['plan_file_reference', 'injected'],
  ['opened_file_in_ide', 'injected'],
  ['selected_lines_in_ide', 'injected'],
  ['diagnostics', 'injected'],
])

/** `system` subtypes with no recall value; the handled ones are in claude-system-record.ts. */
export const skippedSystemSubtypes: ReadonlyMap<string, SkipReason> = new Map<string, SkipReason>([
  ['turn_duration', 'lifecycle'],
  ['stop_hook_summary', 'lifecycle'],
  // Old tool results were cleared from the context; nothing was said.
  ['microcompact_boundary', 'lifecycle'],
  ['bridge_status', 'metadata'],
])

/** `progress` data types (2.1.12–2.1.80): streaming state copied into the transcript. */
export const skippedProgressTypes: ReadonlyMap<string, SkipReason> = new Map<string, SkipReason>([
  // A copy of a subagent record that lives in the subagent's own file.
  ['agent_progress', 'mirror'],
  ['hook_progress', 'lifecycle'],
  ['bash_progress', 'lifecycle'],
  ['mcp_progress', 'lifecycle'],
  ['waiting_for_task', 'lifecycle'],
  ['query_update', 'lifecycle'],
  ['search_results_received', 'lifecycle'],
])
