import { readFileSync, writeFileSync } from 'node:fs'
import { z } from 'zod'
import { servePortFile } from '../config/data-paths.ts'

/**
 * The port a `serve --port 0` bound, kept in the data dir: clients store the server's URL, so a
 * restart on a new port would strand every one of them. `--port 0` means "a free port the first
 * time, then the same one" (docs/decisions.md).
 */
const rememberedSchema = z.object({ host: z.string(), port: z.number().int().min(1).max(65535) })

export function readRememberedPort(dataDir: string, host: string): number | null {
  try {
    const parsed = rememberedSchema.safeParse(JSON.parse(readFileSync(servePortFile(dataDir), 'utf8')))
    return parsed.success && parsed.data.host === host ? parsed.data.port : null
  } catch {
    return null
  }
}

export function rememberPort(dataDir: string, host: string, port: number): void {
  writeFileSync(servePortFile(dataDir), `${JSON.stringify({ host, port })}\n`, { mode: 0o600 })
}
