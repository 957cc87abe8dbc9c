import { statSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

/**
 * Whether Codex's own local app-server daemon listens (`codex app-server daemon start`, or the
 * one its TUI auto-starts): its control socket is `$CODEX_HOME/app-server-control/
 * app-server-control.sock`. Verified with codex-cli 0.171.0: `codex queue --thread <id> --message
 * <text> --resume` starts the turn only on that daemon (or on a server named with `--remote`);
 * with neither it queues the message, warns "could not resume thread … start a local daemon or
 * specify a server with --remote" and still exits 0, and the message waits for the session's
 * next resume. So the queue channel is a turn only while this socket exists.
 */
export function codexDaemonListens(env: Readonly<Record<string, string>>): boolean {
  const codexHome = env.CODEX_HOME ?? join(env.HOME ?? homedir(), '.codex')
  try {
    return statSync(join(codexHome, 'app-server-control', 'app-server-control.sock')).isSocket()
  } catch {
    return false
  }
}
