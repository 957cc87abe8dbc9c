import { appendFileSync, closeSync, fstatSync, openSync, readSync, statSync, writeFileSync } from 'node:fs'

/**
 * The files of sangam's journals (opencode's database and storage, Gemini CLI's whole-file
 * sessions copied into append-only JSONL that capture reads like any transcript): one copier at a
 * time, and appends that never join a torn line.
 */

/** A lock older than this is a crashed copier's and is taken over. */
const lockStaleMs = 60_000

/** Takes the journal's lock file; false while another live copier holds it. */
export function takeJournalLock(lock: string, now: number): boolean {
  try {
    closeSync(openSync(lock, 'wx', 0o600))
    return true
  } catch {
    try {
      if (now - statSync(lock).mtimeMs < lockStaleMs) return false
      writeFileSync(lock, '', { mode: 0o600 })
      return true
    } catch {
      return false
    }
  }
}

/**
 * Appends whole lines. A journal whose last line was torn by a crash mid-append is ended first, so
 * the torn line stays one unparseable line (doctor counts it) and the next record is never glued
 * to it; what the torn line held had no id in the journal and is copied again whole.
 */
export function appendJournalLines(file: string, lines: readonly string[]): void {
  if (lines.length === 0) return
  const prefix = endsTorn(file) ? '\n' : ''
  appendFileSync(file, `${prefix}${lines.join('')}`, { mode: 0o600 })
}

function endsTorn(file: string): boolean {
  let fd: number
  try {
    fd = openSync(file, 'r')
  } catch {
    return false
  }
  try {
    const size = fstatSync(fd).size
    if (size === 0) return false
    const last = Buffer.alloc(1)
    readSync(fd, last, 0, 1, size - 1)
    return last[0] !== 0x0a
  } finally {
    closeSync(fd)
  }
}
