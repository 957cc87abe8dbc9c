import { type ChildProcessByStdio, spawn } from 'node:child_process'
import { closeSync, openSync } from 'node:fs'
import { constants } from 'node:os'
import { join } from 'node:path'
import type { Readable, Writable } from 'node:stream'
import { collectOutput } from './helpers/child-output.ts'
import { projectRoot } from './helpers/run-cli.ts'

/**
 * Runs the compiled agent hook the way Claude Code and Codex do: `node agent-hook-main.cjs <host>`
 * with the payload on stdin, and reports what it printed, its exit code and its wall time.
 */
export const agentHookEntry = join(projectRoot, 'dist', 'hooks', 'agent-hook-main.cjs')

export interface HookRun {
  /** The exit status; 128 + the signal number when a signal ended the process. */
  readonly code: number
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
  readonly ms: number
  /** stdout parsed, when it is JSON. */
  readonly output: { hookSpecificOutput?: Record<string, string> } | null
}

export interface HookRunOptions {
  readonly cwd: string
  readonly env: Record<string, string | undefined>
  /** Raw stdin; by default the JSON of `payload`. */
  readonly stdin?: string | undefined
  /** Stdin read from this file rather than a socket (a payload too big to pipe in the budget). */
  readonly stdinFile?: string | undefined
  /** Leave stdin open (a host that never closes it). */
  readonly keepStdinOpen?: boolean | undefined
}

export function runAgentHook(
  host: 'claude' | 'codex' | 'gemini' | 'opencode',
  payload: unknown,
  options: HookRunOptions,
): Promise<HookRun> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const env = Object.fromEntries(
      Object.entries(options.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
    )
    const stdin = options.stdinFile === undefined ? 'pipe' : openSync(options.stdinFile, 'r')
    const child = spawn(process.execPath, [agentHookEntry, host], {
      cwd: options.cwd,
      env,
      stdio: [stdin, 'pipe', 'pipe'],
    }) as ChildProcessByStdio<Writable | null, Readable, Readable>
    if (typeof stdin === 'number') closeSync(stdin)
    const output = collectOutput(child)
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      const status = code ?? 128 + (signal === null ? 0 : (constants.signals[signal] ?? 0))
      resolve({
        code: status,
        signal,
        stdout: output.stdout,
        stderr: output.stderr,
        ms: performance.now() - started,
        output: parse(output.stdout),
      })
    })
    if (child.stdin === null) return
    child.stdin.write(options.stdin ?? JSON.stringify(payload))
    if (!options.keepStdinOpen) child.stdin.end()
  })
}

/** A Claude Code PreToolUse payload for a file tool (2.1.332 shape). */
export function claudeEdit(
  cwd: string,
  file: string,
  sessionId = 'c1a0de00-0000-4000-8000-000000000001',
  tool = 'Write',
) {
  return {
    session_id: sessionId,
    transcript_path: join(cwd, 'transcript.jsonl'),
    cwd,
    permission_mode: 'acceptEdits',
    hook_event_name: 'PreToolUse',
    tool_name: tool,
    tool_input:
      tool === 'NotebookEdit'
        ? { notebook_path: file, new_source: 'x' }
        : { file_path: file, content: 'x\n' },
    tool_use_id: 'toolu_01',
  }
}

/** A Codex PreToolUse payload for apply_patch (0.171.0 shape). */
export function codexPatch(cwd: string, patch: string, sessionId = '01a2264c-aff5-7b22-ace8-554acdb41e6a') {
  return {
    session_id: sessionId,
    turn_id: 'turn-1',
    transcript_path: null,
    cwd,
    hook_event_name: 'PreToolUse',
    model: 'gpt-5.5',
    permission_mode: 'default',
    tool_name: 'apply_patch',
    tool_input: { command: patch },
    tool_use_id: 'call_1',
  }
}

/** A session event's payload: the fields each event adds are there too (the hosts ignore the rest). */
export type SessionEventName = 'SessionStart' | 'SessionEnd' | 'UserPromptSubmit' | 'Stop'

export function sessionEvent(cwd: string, event: SessionEventName, sessionId: string) {
  return {
    session_id: sessionId,
    transcript_path: null,
    cwd,
    hook_event_name: event,
    source: 'startup',
    reason: 'exit',
    prompt: 'go on',
    stop_hook_active: false,
  }
}

function parse(stdout: string): HookRun['output'] {
  if (stdout.trim() === '') return null
  try {
    return JSON.parse(stdout) as HookRun['output']
  } catch {
    return null
  }
}
