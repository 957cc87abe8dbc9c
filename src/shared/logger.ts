/**
 * A small structured logger that never touches stdout: stdout belongs to `--json` output and to the
 * MCP server's JSON-RPC stream. Lines go to the injected sink (stderr by default).
 */
export const LogLevel = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const
export type LogLevel = keyof typeof LogLevel

/** The level a `SANGAM_LOG` value names; anything else is the default, `warn`. */
export function logLevelOf(value: string | undefined): LogLevel {
  return value !== undefined && Object.hasOwn(LogLevel, value) ? (value as LogLevel) : 'warn'
}

export interface Logger {
  child(fields: Record<string, unknown>): Logger
  debug(message: string, fields?: Record<string, unknown>): void
  info(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
}

export interface LogSink {
  write(line: string): unknown
}

export function createLogger(sink: LogSink, level: LogLevel, context: Record<string, unknown> = {}): Logger {
  const threshold = LogLevel[level]
  const emit = (at: LogLevel, message: string, fields?: Record<string, unknown>): void => {
    if (LogLevel[at] < threshold) return
    const extra = { ...context, ...fields }
    const tail = Object.keys(extra).length === 0 ? '' : ` ${JSON.stringify(extra)}`
    sink.write(`sangam ${at}: ${message}${tail}\n`)
  }
  return {
    child: (fields) => createLogger(sink, level, { ...context, ...fields }),
    debug: (message, fields) => emit('debug', message, fields),
    info: (message, fields) => emit('info', message, fields),
    warn: (message, fields) => emit('warn', message, fields),
    error: (message, fields) => emit('error', message, fields),
  }
}

export const silentLogger: Logger = createLogger({ write: () => undefined }, 'silent')
