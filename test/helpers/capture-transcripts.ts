import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { eventSelect, type StoredEvent, toStoredEvent } from '../../src/memory/store/event-table.ts'
import { listSourceFiles, type SourceFileRow } from '../../src/memory/store/source-file-table.ts'
import { readStore, type StoreReader } from './read-store.ts'
import { isolatedEnv, runCliJson } from './run-cli.ts'
import { type TmpDir, type TmpRepo, tmpDir, tmpGitRepo } from './tmp-git-repo.ts'

/** A temp HOME (own SANGAM_HOME, CLAUDE_CONFIG_DIR, CODEX_HOME) and a real repository. */
export interface CaptureWorld extends AsyncDisposable {
  readonly home: TmpDir
  readonly repo: TmpRepo
  readonly env: Record<string, string | undefined>
  readonly projectId: string
  /** Writes (replacing) a Claude Code transcript `projects/<dir>/<name>`; returns its path. */
  claude(name: string, content: string | Buffer, dir?: string): string
  /** Writes a Codex rollout under `sessions/2026/11/29/`; returns its path. */
  codex(name: string, content: string | Buffer): string
  append(path: string, content: string | Buffer): void
  /** Every stored event, in file order (read straight from the database file). */
  events(): StoredEvent[]
  sourceFiles(): SourceFileRow[]
}

export async function captureWorld(options: { remote?: string } = {}): Promise<CaptureWorld> {
  const home = tmpDir('sangam-home-')
  const repo = tmpGitRepo({ remote: options.remote })
  const env = isolatedEnv(home.path, { SANGAM_USER: 'dev@example.com' })
  const init = await runCliJson<{ projectId: string; database: string }>(['init'], { cwd: repo.path, env })
  const write = (path: string, content: string | Buffer): string => {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, content)
    return path
  }
  const readDb = <T>(read: (db: StoreReader) => T): T => readStore(init.database, read)
  return {
    home,
    repo,
    env,
    projectId: init.projectId,
    claude: (name, content, dir = '-project') =>
      write(join(home.path, '.claude', 'projects', dir, name), content),
    codex: (name, content) => write(join(home.path, '.codex', 'sessions', '2026', '11', '29', name), content),
    append: (path, content) => appendFileSync(path, content),
    events: () =>
      readDb((db) =>
        (db.prepare(`${eventSelect} ORDER BY sourcePath, e.byte_offset, e.part`).all() as unknown[]).map(
          toStoredEvent,
        ),
      ),
    sourceFiles: () => readDb((db) => listSourceFiles(db)),
    [Symbol.asyncDispose]: async () => {
      await repo[Symbol.asyncDispose]()
      await home[Symbol.asyncDispose]()
    },
  }
}

/**
 * Record times of the transcripts written here: an hour before the run started, so they are in
 * capture's default window (which goes by the records' own time) whenever the tests run.
 */
const runStart = Math.floor((Date.now() - 60 * 60 * 1000) / 1000) * 1000
export const transcriptTime = (seconds = 0): string => new Date(runStart + seconds * 1000).toISOString()

let uuid = 0
const nextUuid = (): string => `00000000-0000-4000-8000-${String(++uuid).padStart(12, '0')}`

/** The fields every Claude Code record of a main-branch session carries, in its order. */
function claudeEnvelope(fields: { cwd: string; session: string }) {
  return {
    parentUuid: null,
    isSidechain: false,
    userType: 'external',
    cwd: fields.cwd,
    sessionId: fields.session,
    version: '2.1.80',
    gitBranch: 'main',
  }
}

/** One Claude Code `user` record typed by the human. */
export function claudeHuman(fields: { cwd: string; session: string; text: string; at?: string }): string {
  return `${JSON.stringify({
    ...claudeEnvelope(fields),
    type: 'user',
    message: { role: 'user', content: fields.text },
    uuid: nextUuid(),
    timestamp: fields.at ?? transcriptTime(0),
  })}\n`
}

/** One content block of a Claude Code assistant message (`messageId` joins the blocks). */
export function claudeAssistant(fields: {
  cwd: string
  session: string
  messageId: string
  text: string
}): string {
  return `${JSON.stringify({
    ...claudeEnvelope(fields),
    type: 'assistant',
    message: {
      id: fields.messageId,
      role: 'assistant',
      model: 'm',
      content: [{ type: 'text', text: fields.text }],
    },
    uuid: nextUuid(),
    timestamp: transcriptTime(1),
  })}\n`
}

/** A record type no Claude Code version wrote (yet): counted as unknown, never dropped. */
export function claudeUnknown(session: string): string {
  return `${JSON.stringify({ type: 'hologram-snapshot', sessionId: session, frames: 3 })}\n`
}

/** The first line of a Codex rollout (0.130 shape). */
export function codexMeta(fields: { cwd: string; id: string }): string {
  return `${JSON.stringify({
    timestamp: transcriptTime(0),
    type: 'session_meta',
    payload: {
      id: fields.id,
      timestamp: transcriptTime(0),
      cwd: fields.cwd,
      originator: 'codex_cli_rs',
      cli_version: '0.130.0',
    },
  })}\n`
}

/** A Codex user message as the human typed it. */
export function codexHuman(text: string): string {
  return `${JSON.stringify({
    timestamp: transcriptTime(5),
    type: 'event_msg',
    payload: { type: 'user_message', message: text, images: [], kind: 'plain' },
  })}\n`
}
