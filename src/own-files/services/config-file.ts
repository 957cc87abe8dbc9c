import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { isRecord } from '../../shared/is-record.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'

/**
 * Reading and writing the hosts' own configuration files (Claude's settings.json, Codex's
 * hooks.json and config.toml). These belong to the user: a file we cannot parse is refused and
 * left exactly as it was, and every write goes through a temporary file and a rename so that a
 * crash never leaves half a file behind. The file's mode is kept.
 */
export function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw new SangamError(ErrorCode.InvalidInput, `cannot read ${file}: ${(error as Error).message}`, {
      file,
    })
  }
}

/** A JSON object from `file`, `{}` when the file does not exist. */
export function readJsonObject(file: string): Record<string, unknown> {
  const text = readText(file)
  if (text === null || text.trim() === '') return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new SangamError(
      ErrorCode.InvalidInput,
      `${file} is not valid JSON (${(error as Error).message}); fix it by hand, sangam left it unchanged`,
      { file },
    )
  }
  if (!isRecord(value)) {
    throw new SangamError(
      ErrorCode.InvalidInput,
      `${file} does not hold a JSON object; sangam left it unchanged`,
      {
        file,
      },
    )
  }
  return value
}

export function writeJsonObject(file: string, value: Record<string, unknown>): void {
  writeTextAtomically(file, `${JSON.stringify(value, null, 2)}\n`)
}

export function writeTextAtomically(file: string, text: string, newFileMode = 0o644): void {
  const mode = existsSync(file) ? statSync(file).mode & 0o7777 : newFileMode
  mkdirSync(dirname(file), { recursive: true })
  const temporary = `${file}.sangam-${process.pid}.tmp`
  try {
    writeFileSync(temporary, text, { mode })
    renameSync(temporary, file)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw new SangamError(ErrorCode.InvalidInput, `cannot write ${file}: ${(error as Error).message}`, {
      file,
    })
  }
}
