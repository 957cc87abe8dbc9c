import { dirname, join } from 'node:path'

/**
 * Where sangam keeps its files under the data directory (`Environment.sangamHome`). Every path is
 * computed here and nowhere else, so the layout on disk can be read in one place:
 *
 * ```
 * $SANGAM_HOME/
 *   hook-locators.json            hooks' cache: checkout → git user, project id
 *   machine-id                    this data dir's stable machine id (0600)
 *   projects/<projectId>/         one per project (0700)
 *     sangam.db                   the project's database (memory, leases, sync replica)
 *     daemon.json                 the running `sangam up` of this machine
 *     sync.json                   the team-server attachment (url, key, client id)
 *     hook-heartbeat/             one file per host and hook event
 *     hook-work/                  what a hook could not finish in its budget, done afterwards;
 *                                 and notes for a session's next hook
 *     delivery-log/               the output of each turn delivery started (turn-<id>.log)
 *     claude-wake/                one file per Claude Code session whose wake waiter ran (<session>.json)
 *   codex/                        `sangam codex`'s app-server sockets (0700), one per launcher
 *     app-server-<pid>.sock
 *   claude/                       Claude Code wake waiters' sockets (0700), one per waiter
 *     wake-<pid>.sock
 *   opencode-journal/             opencode's sessions copied from its database (<session>.jsonl)
 *   server/                       `sangam serve`'s default data dir
 *     serve.lock                  the running local server
 * ```
 */

export function projectsDir(sangamHome: string): string {
  return join(sangamHome, 'projects')
}

/** `$SANGAM_HOME/projects/<projectId>`. */
export function projectDir(sangamHome: string, projectId: string): string {
  return join(projectsDir(sangamHome), projectId)
}

/** The project's database: `$SANGAM_HOME/projects/<projectId>/sangam.db`. */
export function databasePath(sangamHome: string, projectId: string): string {
  return databaseFileIn(projectDir(sangamHome, projectId))
}

export function databaseFileIn(projectDir: string): string {
  return join(projectDir, 'sangam.db')
}

/** The discovery file of the project's daemon: one daemon per project and machine. */
export function daemonFile(sangamHome: string, projectId: string): string {
  return join(projectDir(sangamHome, projectId), 'daemon.json')
}

/** The discovery file of the project whose database this is (they share the project's folder). */
export function daemonFileBeside(databaseFile: string): string {
  return join(dirname(databaseFile), 'daemon.json')
}

/** The project's team-server attachment. */
export function attachmentFile(projectDir: string): string {
  return join(projectDir, 'sync.json')
}

/** Where the output of the turns delivery starts goes, one file per turn. */
export function deliveryLogDir(projectDir: string): string {
  return join(projectDir, 'delivery-log')
}

export function deliveryLogFile(projectDir: string, turnId: number): string {
  return join(deliveryLogDir(projectDir), `turn-${turnId}.log`)
}

/** Where the project's hooks leave their heartbeats. */
export function heartbeatDir(projectDir: string): string {
  return join(projectDir, 'hook-heartbeat')
}

/**
 * The journal of hook work kept for afterwards (hook-work/services/): one file per kept step, and
 * the notes a session's next hook carries to it.
 */
export function hookWorkDir(projectDir: string): string {
  return join(projectDir, 'hook-work')
}

/** The hooks' cache of which checkout is which project. */
export function hookLocatorsFile(sangamHome: string): string {
  return join(sangamHome, 'hook-locators.json')
}

/**
 * The machine's stable id for the room: one per data dir, so two `SANGAM_HOME`s on one host are two
 * machines (how tests simulate a team).
 */
export function machineIdFile(sangamHome: string): string {
  return join(sangamHome, 'machine-id')
}

/** The machine's readable name when its user set one (`identify --machine`); else its hostname is used. */
export function machineNameFile(sangamHome: string): string {
  return join(sangamHome, 'machine-name')
}

/** Where `sangam codex` puts its app-server sockets: private to the user (0700). */
export function codexSocketDir(sangamHome: string): string {
  return join(sangamHome, 'codex')
}

/** The app-server socket of the `sangam codex` whose process id is `launcherPid`. */
export function codexSocketFile(sangamHome: string, launcherPid: number): string {
  return join(codexSocketDir(sangamHome), `app-server-${launcherPid}.sock`)
}

/** Where each Claude Code session's wake waiter says whether and where it waits (D371). */
export function claudeWakeDir(projectDir: string): string {
  return join(projectDir, 'claude-wake')
}

/** The wake record of one Claude Code session. */
export function claudeWakeFile(projectDir: string, sessionId: string): string {
  return join(claudeWakeDir(projectDir), `${sessionId}.json`)
}

/** Where Claude Code wake waiters listen: private to the user (0700), short for a socket's path. */
export function claudeWakeSocketDir(sangamHome: string): string {
  return join(sangamHome, 'claude')
}

/** The socket of the wake waiter whose process id is `waiterPid`. */
export function claudeWakeSocketFile(sangamHome: string, waiterPid: number): string {
  return join(claudeWakeSocketDir(sangamHome), `wake-${waiterPid}.sock`)
}

/** `sangam serve`'s data dir when `--data` does not name one. */
export function defaultServerDataDir(sangamHome: string): string {
  return join(sangamHome, 'server')
}

/**
 * Where `sangam serve --install-runtime` installs the Workers runtime (`<package>-<version>`, an npm
 * prefix of its own): outside the CLI's package, so that any install of sangam (global, npx, a
 * project's) finds it, and the next sangam that pins another version installs beside it.
 */
export function serveRuntimeDir(sangamHome: string, packageName: string, version: string): string {
  return join(sangamHome, 'runtime', `${packageName}-${version}`)
}

/** The lock of the local server running on `dataDir`. */
export function serveLockFile(dataDir: string): string {
  return join(dataDir, 'serve.lock')
}

/** The port a `serve --port 0` on `dataDir` bound, reused by the next one (serve/remembered-port.ts). */
export function servePortFile(dataDir: string): string {
  return join(dataDir, 'serve-port.json')
}

/** Where opencode's sessions are copied from its database, one JSONL file each (opencode-journal.ts). */
export function opencodeJournalDir(sangamHome: string): string {
  return join(sangamHome, 'opencode-journal')
}

/** Where Gemini CLI's whole-file sessions (before 0.39) are copied as JSONL (gemini-journal.ts). */
export function geminiJournalDir(sangamHome: string): string {
  return join(sangamHome, 'gemini-journal')
}
