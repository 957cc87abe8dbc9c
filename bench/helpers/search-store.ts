import { renameSync, rmSync } from 'node:fs'
import type { EventKind, Vendor } from '../../src/memory/protocol/event.ts'
import { openDatabaseFile } from '../../src/project/store/project-database.ts'
import { seededRandom, transcriptSentences } from './transcript-sentences.ts'

const spanMs = 30 * 24 * 60 * 60 * 1000
const kinds: readonly [EventKind, number][] = [
  ['human', 0.05],
  ['assistant', 0.25],
  ['thinking', 0.1],
  ['tool_call', 0.25],
  ['tool_output', 0.33],
  ['system', 0.02],
]

/**
 * A store of `eventCount` events over the 30 days before `now`, texts drawn from real transcript
 * sentences (seeded, so every run builds the same store), written to `file` once complete.
 */
export function buildStore(
  file: string,
  eventCount: number,
  now: number,
  print: (...parts: string[]) => void,
): void {
  const sentences = transcriptSentences()
  const random = seededRandom(42)
  const pick = (): string => sentences[Math.floor(random() * sentences.length)] ?? ''
  const kindAt = (r: number): EventKind => {
    let total = 0
    for (const [kind, share] of kinds) {
      total += share
      if (r < total) return kind
    }
    return 'tool_output'
  }
  const partial = `${file}.partial`
  rmSync(partial, { force: true })
  const db = openDatabaseFile(partial)
  db.pragma('synchronous = OFF')
  const insert = db.prepare(
    /*sql*/ `INSERT INTO event (id, kind, vendor, cli_version, session_id, author, cwd, branch, at, part, text, full_size, shareable)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, 1)`,
  )
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const kind = kindAt(random())
      const count = kind === 'tool_output' ? 3 + Math.floor(random() * 6) : 1 + Math.floor(random() * 3)
      const text = Array.from({ length: count }, pick).join(' ')
      const session = Math.floor((i / eventCount) * 2000)
      const vendor: Vendor = session % 3 === 0 ? 'codex' : 'claude'
      const at = now - spanMs + Math.floor((i / eventCount) * spanMs)
      insert.run(
        `ev_${i}`,
        kind,
        vendor,
        '2.1.0',
        `s${session}`,
        'dev@example.com',
        '/work/widget',
        'main',
        at,
        text,
        text.length,
      )
    }
  })
  const started = performance.now()
  for (let from = 0; from < eventCount; from += 50_000) batch(from, Math.min(eventCount, from + 50_000))
  db.exec(`INSERT INTO event_fts (event_fts) VALUES ('rebuild')`)
  db.close()
  renameSync(partial, file)
  print(`built ${eventCount} events in ${((performance.now() - started) / 1000).toFixed(0)} s`)
}
