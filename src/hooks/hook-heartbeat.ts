import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { stringField } from '../agents/hook-payload.ts'
import { heartbeatDir } from '../config/data-paths.ts'
import { isRecord } from '../shared/is-record.ts'

/**
 * Proof that a hook really runs: every run leaves one small file per host and event in the
 * project's data directory, `hook-heartbeat/<host>.<event>.json`, replaced atomically (a
 * temporary file and a rename) so that parallel hooks never leave a torn file; the last run wins.
 * `sangam doctor` reads them: a hook that is installed but has no heartbeat has never fired.
 * Writing one costs one small write and a rename after the answer is on stdout.
 */
export interface Heartbeat {
  readonly host: string
  /** The host's event name: `SessionStart`, `PreToolUse`, `SessionEnd`, or `pre-push`. */
  readonly event: string
  /** The host CLI's version when it can be told cheaply, else null. */
  readonly hostVersion: string | null
  /** ms epoch. */
  readonly at: number
  /** What the hook answered: `allow`, `deny`, `context`, `released`, `fail-open: <why>`, … */
  readonly outcome: string
  readonly durationMs: number
}

export function writeHeartbeat(projectDir: string, beat: Heartbeat): void {
  const dir = heartbeatDir(projectDir)
  const file = join(dir, `${safe(beat.host)}.${safe(beat.event)}.json`)
  const temporary = `${file}.${process.pid}.tmp`
  const text = `${JSON.stringify(beat)}\n`
  try {
    writeFileSync(temporary, text, { mode: 0o600 })
  } catch {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    writeFileSync(temporary, text, { mode: 0o600 })
  }
  renameSync(temporary, file)
}

/** Every heartbeat of a project; unreadable files are skipped. */
export function readHeartbeats(projectDir: string): Heartbeat[] {
  const dir = heartbeatDir(projectDir)
  let names: string[]
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json'))
  } catch {
    return []
  }
  return names.flatMap((name) => {
    try {
      const value: unknown = JSON.parse(readFileSync(join(dir, name), 'utf8'))
      return isRecord(value) ? heartbeatOf(value) : []
    } catch {
      return []
    }
  })
}

function heartbeatOf(value: Readonly<Record<string, unknown>>): Heartbeat[] {
  const host = stringField(value, 'host')
  const event = stringField(value, 'event')
  if (host === null || event === null || typeof value.at !== 'number') return []
  return [
    {
      host,
      event,
      hostVersion: stringField(value, 'hostVersion'),
      at: value.at,
      outcome: stringField(value, 'outcome') ?? 'unknown',
      durationMs: typeof value.durationMs === 'number' ? value.durationMs : 0,
    },
  ]
}

function safe(name: string): string {
  return name.replace(/[^\w-]/g, '_')
}
