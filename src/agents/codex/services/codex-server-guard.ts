/**
 * Binds the lifetime of `sangam codex`'s app-server to its launcher, even when the launcher is
 * SIGKILLed (no `finally` runs then, and Linux does not end a dead parent's children). The server
 * is started through a small Node guard whose stdin is a pipe from the launcher: the pipe's write
 * end closes when the launcher dies, however it dies, and the guard then stops the server (SIGTERM,
 * SIGKILL 3 s later) and removes its socket. A SIGTERM, SIGINT or SIGHUP to the guard is passed on
 * the same way. The guard exits as the server did (its code, or 128 + the signal's number), and
 * the server's stderr is the guard's, so the launcher reads Codex's own words when it fails.
 *
 * Guard argv: `<node> -e <guardScript> <socket> <codex> <args…>`.
 */
export const guardScript = `
const { spawn } = require('node:child_process')
const { rmSync } = require('node:fs')
const { constants } = require('node:os')
const [socket, bin, ...args] = process.argv.slice(1)
let server
try {
  server = spawn(bin, args, { stdio: ['ignore', 'ignore', 'inherit'] })
} catch (error) {
  process.stderr.write(String(error && error.message) + '\\n')
  process.exit(127)
}
let stopping = false
const stop = () => {
  if (stopping) return
  stopping = true
  if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM')
  setTimeout(() => {
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL')
  }, 3000).unref()
}
process.stdin.on('end', stop)
process.stdin.on('error', stop)
process.stdin.on('close', stop)
process.stdin.resume()
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, stop)
server.on('error', (error) => {
  process.stderr.write(error.message + '\\n')
  process.exit(127)
})
server.on('exit', (code, signal) => {
  try { rmSync(socket, { force: true }) } catch {}
  process.exit(code !== null ? code : 128 + (constants.signals[signal] || 0))
})
`

/** The command that runs `codexBin args…` under the guard, for `spawn(command, argv)`. */
export function guardedServer(
  nodePath: string,
  socket: string,
  codexBin: string,
  args: readonly string[],
): { readonly command: string; readonly argv: readonly string[] } {
  return { command: nodePath, argv: ['-e', guardScript, socket, codexBin, ...args] }
}
