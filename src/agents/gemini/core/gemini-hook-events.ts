/**
 * Gemini CLI's hooks in the terms of the agent hook sangam already runs for Claude Code and Codex.
 * Gemini CLI (0.26+) reads hooks from `settings.json` in nearly Claude Code's shape, but names its
 * events and tools its own way and answers differently:
 *
 * | Gemini CLI       | sangam's agent hook | what sangam does                                  |
 * |------------------|---------------------|---------------------------------------------------|
 * | SessionStart     | SessionStart        | presence online, the brief as `additionalContext` |
 * | BeforeAgent      | UserPromptSubmit    | presence online, the room's unseen messages       |
 * | BeforeTool       | PreToolUse          | the edit gate (`write_file` → Write, `replace` → Edit) |
 * | AfterAgent       | Stop                | presence idle, or a hand-over as a retry prompt   |
 * | SessionEnd       | SessionEnd          | presence offline, the session's leases released   |
 *
 * A denial is `{"decision":"deny","reason":…}` (the reason reaches the model as the tool's error);
 * context is `hookSpecificOutput.additionalContext`, which Gemini CLI wraps in `<hook_context>` and
 * adds to the prompt. A BeforeTool answer cannot carry context to the model, so an allowed edit's
 * notes (and a fail-open's word) go to the user's screen as `systemMessage`.
 */
const events: Readonly<Record<string, string>> = {
  SessionStart: 'SessionStart',
  BeforeAgent: 'UserPromptSubmit',
  BeforeTool: 'PreToolUse',
  AfterAgent: 'Stop',
  SessionEnd: 'SessionEnd',
}

/** Gemini CLI's file-writing tools, as the edit gate knows their Claude Code counterparts. */
const tools: Readonly<Record<string, string>> = { write_file: 'Write', replace: 'Edit' }

/** The hook events sangam installs for Gemini CLI, and the tools its BeforeTool hook matches. */
export const geminiHookEvents: readonly string[] = Object.keys(events)

/** Gemini CLI's name for one of sangam's hook events (`PreToolUse` → `BeforeTool`), or null. */
export function geminiEventFor(sangamEvent: string): string | null {
  return Object.keys(events).find((gemini) => events[gemini] === sangamEvent) ?? null
}
export const geminiEditToolMatcher = `^(${Object.keys(tools).join('|')})$`

/**
 * Gemini CLI's hook stdin as a Claude Code payload: the event and tool renamed, everything else as
 * it came (`session_id`, `transcript_path`, `cwd`, `tool_input.file_path`). Input that is not a JSON
 * object is returned unchanged, so the hook reports it as it would any malformed payload.
 */
export function geminiPayloadAsClaude(stdin: string): string {
  let payload: unknown
  try {
    payload = JSON.parse(stdin)
  } catch {
    return stdin
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return stdin
  const fields = payload as Record<string, unknown>
  const event = typeof fields.hook_event_name === 'string' ? fields.hook_event_name : ''
  const tool = typeof fields.tool_name === 'string' ? fields.tool_name : null
  return JSON.stringify({
    ...fields,
    hook_event_name: events[event] ?? event,
    ...(tool === null ? {} : { tool_name: tools[tool] ?? tool }),
  })
}

/**
 * The agent hook's stdout (Claude Code's shape, hook-answer.ts) as Gemini CLI reads it. `event`
 * is Gemini's own event name. Nothing in is nothing out: the tool runs, the prompt goes as typed.
 */
export function claudeAnswerAsGemini(event: string, stdout: string): string {
  if (stdout.trim() === '') return ''
  let answer: Record<string, unknown>
  try {
    answer = JSON.parse(stdout) as Record<string, unknown>
  } catch {
    return ''
  }
  // A Stop hook's hand-over: Gemini's AfterAgent `deny` sends the reason as the next prompt.
  if (answer.decision === 'block' && typeof answer.reason === 'string')
    return `${JSON.stringify({ decision: 'deny', reason: answer.reason })}\n`
  const specific = answer.hookSpecificOutput
  if (typeof specific !== 'object' || specific === null) return ''
  const { permissionDecision, permissionDecisionReason, additionalContext } = specific as Record<
    string,
    unknown
  >
  if (permissionDecision === 'deny')
    return `${JSON.stringify({ decision: 'deny', reason: String(permissionDecisionReason ?? '') })}\n`
  if (typeof additionalContext !== 'string' || additionalContext === '') return ''
  if (event === 'BeforeTool') return `${JSON.stringify({ systemMessage: additionalContext })}\n`
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext } })}\n`
}

/** The Gemini event name in a payload, for translating the answer back; '' when there is none. */
export function geminiEventOf(stdin: string): string {
  return /"hook_event_name"\s*:\s*"([A-Za-z]+)"/.exec(stdin.slice(0, 64 * 1024))?.[1] ?? ''
}
