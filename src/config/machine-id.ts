import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { type Random, systemRandom } from '../shared/random.ts'
import { machineIdFile } from './data-paths.ts'

const machineIdShape = /^m_[0-9a-f]{16}$/

/**
 * This data dir's machine id (`m_` + 16 hex), created once with `random` and kept in a 0600 file.
 * Created with O_EXCL, so two processes racing on a fresh data dir agree on the first one written.
 */
export function loadMachineId(sangamHome: string, random: Random = systemRandom): string {
  const file = machineIdFile(sangamHome)
  const existing = readId(file)
  if (existing !== null) return existing
  const bytes = random.bytes(8)
  const id = `m_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  let fd: number
  try {
    fd = openSync(file, 'wx', 0o600)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    const raced = readId(file)
    if (raced !== null) return raced
    throw error
  }
  try {
    writeSync(fd, `${id}\n`)
  } finally {
    closeSync(fd)
  }
  return id
}

function readId(file: string): string | null {
  try {
    const text = readFileSync(file, 'utf8').trim()
    return machineIdShape.test(text) ? text : null
  } catch {
    return null
  }
}
