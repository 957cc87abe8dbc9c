/**
 * Codex's exec tools (`exec_command`, `shell`, `write_stdin`, code cells) prefix what the command
 * printed with a header the model reads: `Chunk ID: 6d0214`, `Wall time: 0.0000 seconds`,
 * `Process exited with code 0`, `Original token count: 54`, then `Output:`. Stored as written (it
 * is what the model saw, and searchable); for reading, the header becomes one short status.
 */
export interface ExecOutput {
  /** `exit 0 · 1.2 s`, `running (session 7) · 11 s`; null when the header says neither. */
  readonly status: string | null
  /** What the command printed. */
  readonly output: string
}

const headerLine =
  /^(?:Command: .*|Chunk ID: \S+|Wall time:? [\d.]+ ?(?:seconds|s)?|Process exited with code -?\d+|Exit code: -?\d+|Process running with session ID \d+|Script running with cell ID \d+|Original token count: \d+|Total output lines: \d+)$/
/** The header is a handful of lines; a longer run of look-alikes is output, not a header. */
const maxHeaderLines = 8

/** The header and the output of a Codex exec result, or null when `text` does not start with one. */
export function splitExecOutput(text: string): ExecOutput | null {
  const lines = text.split('\n')
  const outputAt = lines.findIndex((line, index) => index <= maxHeaderLines && /^Output:/.test(line))
  if (outputAt < 1) return null
  const header = lines.slice(0, outputAt)
  if (!header.every((line) => headerLine.test(line.trimEnd()))) return null
  const inline = (lines[outputAt] ?? '').replace(/^Output:\s?/, '')
  const rest = lines.slice(outputAt + 1)
  return {
    status: statusOf(header),
    output: (inline === '' ? rest : [inline, ...rest]).join('\n'),
  }
}

function statusOf(header: readonly string[]): string | null {
  const field = (pattern: RegExp): string | null => {
    for (const line of header) {
      const found = pattern.exec(line)
      if (found) return found[1] ?? null
    }
    return null
  }
  const exit = field(/^(?:Process exited with code|Exit code:) (-?\d+)/)
  const session = field(/^Process running with session ID (\d+)/)
  const cell = field(/^Script running with cell ID (\d+)/)
  const wall = field(/^Wall time:? ([\d.]+)/)
  const state =
    exit !== null
      ? `exit ${exit}`
      : session !== null
        ? `running (session ${session})`
        : cell !== null
          ? `running (cell ${cell})`
          : null
  const time = wall === null ? null : `${trimSeconds(wall)} s`
  const parts = [state, time].filter((part) => part !== null)
  return parts.length === 0 ? null : parts.join(' · ')
}

function trimSeconds(wall: string): string {
  const seconds = Number(wall)
  if (!Number.isFinite(seconds)) return wall
  return seconds < 10 ? String(Math.round(seconds * 10) / 10) : String(Math.round(seconds))
}
