import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { projectRoot } from './run-cli.ts'

/**
 * The compiled wake waiter (dist/hooks/claude-wake-main.cjs) run the way Claude Code runs it: a
 * Stop payload on stdin, Claude Code's environment (`AI_AGENT`, `CLAUDE_CODE_ENTRYPOINT`), and the
 * test process as its parent, standing in for Claude Code. The real CLI runs it in
 * test/agents/scenarios/claude-wake.scenario.ts.
 */
export const claudeWakeEntry = join(projectRoot, 'dist', 'hooks', 'claude-wake-main.cjs')

export interface WaiterOptions {
  readonly cwd: string
  readonly env: Record<string, string | undefined>
  readonly sessionId: string
  /** `AI_AGENT`'s version part; 2.1.332 unless given. */
  readonly version?: string | undefined
  /** `CLAUDE_CODE_ENTRYPOINT`; `cli` (the terminal UI) unless given. */
  readonly entrypoint?: string | undefined
}

export interface WaiterProcess {
  readonly child: ChildProcess
  /** The exit code and what the waiter left on stderr (the prompt, once woken). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>
}

export function waiterEnv(options: WaiterOptions): Record<string, string> {
  const env = {
    ...options.env,
    AI_AGENT: `claude-code_${(options.version ?? '2.1.332').replaceAll('.', '-')}_harness`,
    CLAUDE_CODE_ENTRYPOINT: options.entrypoint ?? 'cli',
  }
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  )
}

export function stopPayload(cwd: string, sessionId: string): string {
  return JSON.stringify({
    session_id: sessionId,
    transcript_path: null,
    cwd,
    hook_event_name: 'Stop',
    stop_hook_active: false,
    last_assistant_message: 'Done.',
  })
}

export function startWakeWaiter(options: WaiterOptions): WaiterProcess {
  const child = spawn(process.execPath, [claudeWakeEntry], {
    cwd: options.cwd,
    env: waiterEnv(options),
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) => child.on('close', (code, signal) => resolve({ code, signal, stderr })),
  )
  child.stdin?.end(stopPayload(options.cwd, options.sessionId))
  return { child, exited }
}

/** The session's wake record as the waiter wrote it, or null. */
export function wakeRecord(projectDir: string, sessionId: string): Record<string, unknown> | null {
  const file = join(projectDir, 'claude-wake', `${sessionId}.json`)
  try {
    // Replaced by a rename: read whole or not at all.
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}
