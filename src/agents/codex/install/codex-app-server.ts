import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { isRecord } from '../../../shared/is-record.ts'
import { stringField } from '../../hook-payload.ts'

/**
 * Asks Codex itself which hooks it sees and whether each is trusted: `codex app-server` speaks
 * newline-delimited JSON-RPC on stdio; `initialize`, `initialized`, then `hooks/list`. Codex
 * computes each hook's hash internally and does not document it, so this is the only supported
 * way to learn the hash a trust record must carry.
 */
export interface CodexHookEntry {
  /** `<hooks.json path>:<event_snake_case>:<group index>:<handler index>`. */
  readonly key: string
  readonly eventName: string
  readonly command: string
  readonly sourcePath: string
  readonly currentHash: string
  /** `untrusted`, `trusted`, `modified` (trusted once, changed since) or `managed`. */
  readonly trustStatus: string
}

export type CodexHookList =
  | { readonly ok: true; readonly hooks: readonly CodexHookEntry[]; readonly cliVersion: string | null }
  | { readonly ok: false; readonly reason: string }

export interface ListOptions {
  /** The `codex` executable; found on PATH by default. */
  readonly codexBin: string
  /** Directories whose project layers Codex should consider. */
  readonly cwds: readonly string[]
  readonly timeoutMs: number
}

export function listCodexHooks(options: ListOptions): Promise<CodexHookList> {
  return new Promise((resolve) => {
    const child = spawn(options.codexBin, ['app-server'], {
      cwd: options.cwds[0],
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stderr = ''
    let settled = false
    const finish = (result: CodexHookList): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      // The app-server exits on its own when stdin closes; a kill is only for one that hangs.
      child.stdin.end()
      setTimeout(
        () => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'),
        3000,
      ).unref()
      resolve(result)
    }
    const timer = setTimeout(
      () => finish({ ok: false, reason: `codex app-server did not answer within ${options.timeoutMs} ms` }),
      options.timeoutMs,
    )
    child.on('error', (error: NodeJS.ErrnoException) =>
      finish({
        ok: false,
        reason:
          error.code === 'ENOENT' ? `${options.codexBin} is not installed or not on PATH` : error.message,
      }),
    )
    child.on('exit', (code) =>
      finish({
        ok: false,
        reason: `codex app-server exited (${code}) before answering: ${lastLine(stderr)}`,
      }),
    )
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000)
    })
    child.stdin.on('error', () => undefined)
    let cliVersion: string | null = null
    const send = (message: Record<string, unknown>): void => {
      child.stdin.write(`${JSON.stringify(message)}\n`)
    }
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = parseLine(line)
      if (message === null) return
      if (message.id === 1) {
        if (isRecord(message.error)) return finish({ ok: false, reason: `initialize failed: ${line}` })
        cliVersion = versionOf(message.result)
        send({ method: 'initialized' })
        send({ id: 2, method: 'hooks/list', params: { cwds: options.cwds } })
        return
      }
      if (message.id !== 2) return
      const hooks = hookEntries(message.result)
      finish(
        hooks === null
          ? { ok: false, reason: `unexpected hooks/list answer: ${line}` }
          : { ok: true, hooks, cliVersion },
      )
    })
    send({
      id: 1,
      method: 'initialize',
      params: { clientInfo: { name: 'sangam', title: 'sangam', version: '1' } },
    })
  })
}

function parseLine(line: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(line)
    return isRecord(value) ? value : null
  } catch {
    return null
  }
}

function hookEntries(result: unknown): CodexHookEntry[] | null {
  if (!isRecord(result) || !Array.isArray(result.data)) return null
  return result.data.flatMap((scope) =>
    isRecord(scope) && Array.isArray(scope.hooks) ? scope.hooks.flatMap((hook) => entryOf(hook)) : [],
  )
}

function entryOf(hook: unknown): CodexHookEntry[] {
  if (!isRecord(hook)) return []
  const key = stringField(hook, 'key')
  const currentHash = stringField(hook, 'currentHash')
  if (key === null || currentHash === null) return []
  return [
    {
      key,
      currentHash,
      eventName: stringField(hook, 'eventName') ?? '',
      command: stringField(hook, 'command') ?? '',
      sourcePath: stringField(hook, 'sourcePath') ?? '',
      trustStatus: stringField(hook, 'trustStatus') ?? 'untrusted',
    },
  ]
}

/** `initialize` answers with a user agent such as `sangam/0.171.0 (…)`; the version is after the slash. */
function versionOf(result: unknown): string | null {
  if (!isRecord(result)) return null
  const agent = stringField(result, 'userAgent')
  return agent === null ? null : (/\/(\d+\.\d+\.\d+[\w.-]*)/.exec(agent)?.[1] ?? null)
}

function lastLine(text: string): string {
  return (
    text
      .trim()
      .split('\n')
      .filter((line) => line.trim() !== '')
      .at(-1) ?? 'no output'
  )
}
