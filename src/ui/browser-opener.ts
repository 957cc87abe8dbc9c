import { spawn } from 'node:child_process'
import type { Logger } from '../shared/logger.ts'

/**
 * Opens `url` in the user's browser with the desktop's opener (`xdg-open`, `open` on macOS,
 * `start` on Windows). Never fails: without an opener, or when it cannot start, the printed URL
 * is the way in, and the log says so.
 */
export function openBrowser(url: string, platform: NodeJS.Platform, log: Logger): void {
  const [command, ...args] =
    platform === 'darwin'
      ? ['open', url]
      : platform === 'win32'
        ? ['cmd', '/c', 'start', '', url]
        : ['xdg-open', url]
  try {
    const child = spawn(command ?? 'xdg-open', args, { detached: true, stdio: 'ignore' })
    child.on('error', (error) => log.info(`could not open a browser (${error.message}); open the URL above`))
    child.unref()
  } catch (error) {
    log.info(`could not open a browser (${String(error)}); open the URL above`)
  }
}
