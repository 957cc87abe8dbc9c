import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

/**
 * opencode has no command hooks; it has plugins, and a plugin's `tool.execute.before` that throws
 * refuses the tool call before it runs, with the error as the tool's result, which the model sees.
 * sangam's plugin (`.opencode/plugins/sangam.js`, or `~/.config/opencode/plugins/sangam.js` with
 * `--user`) hands each file edit (`edit`, `write`, `multiedit`, `apply_patch`, `patch`) to the same
 * agent hook as Claude Code's and Codex's edits, as a `PreToolUse` payload, and throws when the
 * answer denies it: the same lease check, path rules, auto-lease and fail-open. A hook that cannot
 * be run or answers nothing lets the edit through (fail-open), as elsewhere.
 *
 * The session's brief: the first time opencode assembles a session's system prompt
 * (`experimental.chat.system.transform`, before each model request), the plugin runs the hook's
 * `SessionStart` and adds its context to the system prompt of that request and every later one
 * of the session, as Claude Code and Codex keep theirs.
 *
 * The room and presence, in the hook's events (docs/vendors/opencode.md):
 * | opencode                       | sangam's agent hook | what sangam does                           |
 * |--------------------------------|---------------------|--------------------------------------------|
 * | `chat.message` (a prompt)      | UserPromptSubmit    | online; the room's unseen messages join the prompt as a synthetic part |
 * | `event` `session.idle`         | Stop                | idle (no hand-over: opencode has no answer that keeps a turn going) |
 * | `event` `session.deleted`, `dispose` (opencode stops) | SessionEnd | offline; the session's auto-leases released |
 * Hooks run one at a time in order (a Stop never lands after the next prompt's online), without
 * blocking opencode's event loop; any failure lets opencode go on as if the plugin were absent.
 */
export interface OpencodePluginChange {
  readonly file: string
  readonly change: 'added' | 'updated' | 'unchanged' | 'removed' | 'absent'
}

/** The first line of our plugin: a file that starts otherwise is the user's, never touched. */
export const pluginMarker = '// sangam-opencode-plugin:'

/** The plugin file in a project (`<root>/.opencode`) or in opencode's user config directory. */
export function opencodePluginFile(configDir: string): string {
  return join(configDir, 'plugins', 'sangam.js')
}

export function installOpencodePlugin(file: string, hookEntry: string): OpencodePluginChange {
  const source = opencodePluginSource(hookEntry)
  const before = readOrNull(file)
  if (before === source) return { file, change: 'unchanged' }
  if (before !== null && !before.startsWith(pluginMarker)) {
    // Someone else's plugin of that name: ours goes beside it under another name.
    return installOpencodePlugin(join(dirname(file), 'sangam-leases.js'), hookEntry)
  }
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, source)
  return { file, change: before === null ? 'added' : 'updated' }
}

export function uninstallOpencodePlugin(file: string): OpencodePluginChange {
  for (const candidate of [file, join(dirname(file), 'sangam-leases.js')]) {
    const before = readOrNull(candidate)
    if (before?.startsWith(pluginMarker)) {
      rmSync(candidate)
      return { file: candidate, change: 'removed' }
    }
  }
  return { file, change: 'absent' }
}

/**
 * A lane's worktree starts without the main worktree's plugin (kept out of git: it names this
 * machine's path), so opencode in the lane would edit unguarded: the lane gets the same file.
 * Nothing happens when main has none, or the lane already has a file of that name.
 */
export function giveLaneOpencodePlugin(mainRoot: string, laneRoot: string): OpencodePluginChange | null {
  const mine = opencodePluginFile(join(mainRoot, '.opencode'))
  for (const candidate of [mine, join(dirname(mine), 'sangam-leases.js')]) {
    const text = readOrNull(candidate)
    if (!text?.startsWith(pluginMarker)) continue
    const file = join(laneRoot, candidate.slice(mainRoot.length + 1))
    const present = readOrNull(file)
    if (present === text) return { file, change: 'unchanged' }
    if (present !== null && !present.startsWith(pluginMarker)) return null
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, text)
    return { file, change: present === null ? 'added' : 'updated' }
  }
  return null
}

/** True when `file` (or its fallback name) is our plugin. */
export function holdsOurPlugin(file: string): boolean {
  return ourPlugin(file) !== null
}

/** Our plugin at `file` or its fallback name: where it is and its source; null when neither is ours. */
export function ourPlugin(file: string): { readonly file: string; readonly source: string } | null {
  for (const candidate of [file, join(dirname(file), 'sangam-leases.js')]) {
    const source = readOrNull(candidate)
    if (source?.startsWith(pluginMarker)) return { file: candidate, source }
  }
  return null
}

function readOrNull(file: string): string | null {
  if (!existsSync(file)) return null
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return null
  }
}

/**
 * The plugin's source: plain ESM with node builtins only (opencode loads it with Bun), so it needs
 * no package install. The hook runs under `node` from PATH, as the other hosts run it.
 */
export function opencodePluginSource(hookEntry: string): string {
  return `${pluginMarker} file leases, the room and presence for opencode, written by \`sangam install-hooks\` (removed by \`sangam install-hooks --uninstall\`).
// It names this machine's sangam, so it is kept out of git. Every question goes to sangam's agent hook.
import { spawn } from "node:child_process"
import { randomInt } from "node:crypto"

const hook = ${JSON.stringify(hookEntry)}
const edits = new Set(["edit", "write", "multiedit", "apply_patch", "patch"])
/** Each session's brief, asked for once per process. */
const briefs = new Map()
/** Sessions this process served and has not ended: each gets a SessionEnd when opencode stops. */
const live = new Set()
/** Sub-sessions (the task tool's): their "user" is the parent agent, not a member of the room. */
const children = new Set()
/** One hook at a time, in order: a Stop never overtakes the prompt that follows it. */
let queue = Promise.resolve()

/** The hook's answer (its whole stdout, parsed), or undefined when it could not run or said nothing. */
function ask(payload) {
  const asked = queue.then(() => run(payload))
  queue = asked.catch(() => undefined)
  return asked
}

/** Past this the hook (whose own budget is 1.5 s) counts as silent: the edit goes through. */
const patienceMs = 10000

function run(payload) {
  return new Promise((resolve) => {
    let out = ""
    let child
    try {
      child = spawn("node", [hook, "opencode"], { stdio: ["pipe", "pipe", "pipe"] })
    } catch {
      resolve(undefined)
      return
    }
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      resolve(undefined)
    }, patienceMs)
    child.stdout.on("data", (chunk) => {
      out += chunk
    })
    child.stderr.on("data", (chunk) => process.stderr.write(chunk))
    child.on("error", () => {
      clearTimeout(timer)
      resolve(undefined)
    })
    child.on("close", () => {
      clearTimeout(timer)
      try {
        resolve(JSON.parse(out || "{}"))
      } catch {
        resolve(undefined)
      }
    })
    child.stdin.on("error", () => undefined)
    child.stdin.end(JSON.stringify(payload))
  })
}

/**
 * A part id in opencode's own shape (\`prt_\`, 12 hex digits of its clock and counter, 14 random
 * characters), ordered just after the prompt's last part (or its message), so it follows them.
 */
function partIdAfter(ids) {
  const last = ids.filter((id) => typeof id === "string" && /^(prt|msg)_[0-9a-f]{12}/.test(id)).sort().at(-1)
  const next = last === undefined ? 0n : BigInt("0x" + last.slice(4, 16)) + 1n
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
  let tail = ""
  for (let i = 0; i < 14; i += 1) tail += alphabet[randomInt(62)]
  return "prt_" + next.toString(16).padStart(12, "0").slice(-12) + tail
}

export const SangamLeases = async ({ directory }) => {
  const context = (answer) => {
    const text = answer?.hookSpecificOutput?.additionalContext
    return typeof text === "string" ? text : ""
  }
  const brief = async (sessionID) => {
    if (!briefs.has(sessionID)) {
      briefs.set(sessionID, "")
      const answer = await ask({ hook_event_name: "SessionStart", session_id: sessionID, cwd: directory, source: "startup" })
      briefs.set(sessionID, context(answer))
    }
    return briefs.get(sessionID)
  }
  const end = async (sessionID, reason) => {
    if (!live.delete(sessionID)) return
    await ask({ hook_event_name: "SessionEnd", session_id: sessionID, cwd: directory, reason })
  }
  return {
    "tool.execute.before": async (input, output) => {
      if (!edits.has(input.tool)) return
      const answer = (await ask({
        hook_event_name: "PreToolUse",
        session_id: input.sessionID,
        cwd: directory,
        tool_name: input.tool,
        tool_input: output.args ?? {},
      }))?.hookSpecificOutput
      if (answer?.permissionDecision === "deny") throw new Error(answer.permissionDecisionReason || "sangam denied this edit")
    },
    // A prompt is about to be saved (UserPromptSubmit): the session is online, and the room's
    // unseen messages join the prompt once, as a synthetic part (kept in the session's history).
    "chat.message": async (input, output) => {
      try {
        if (!input.sessionID || children.has(input.sessionID) || !Array.isArray(output.parts)) return
        live.add(input.sessionID)
        // Before the brief (asked as the system prompt is assembled, after this): what is unseen
        // travels in the prompt, kept in the session's history, not in a brief a later process
        // of the session assembles anew without it.
        const prompt = output.parts
          .filter((part) => part.type === "text" && !part.synthetic)
          .map((part) => part.text)
          .join("\\n")
        const room = context(await ask({ hook_event_name: "UserPromptSubmit", session_id: input.sessionID, cwd: directory, prompt }))
        if (room === "") return
        output.parts.push({
          id: partIdAfter([output.message?.id, ...output.parts.map((part) => part.id)]),
          sessionID: input.sessionID,
          messageID: output.message?.id ?? input.messageID,
          type: "text",
          synthetic: true,
          text: room,
        })
      } catch {
        // Fail open: the prompt goes as typed; the messages wait for the next one.
      }
    },
    "experimental.chat.system.transform": async (input, output) => {
      try {
        if (!input.sessionID || children.has(input.sessionID) || !Array.isArray(output.system)) return
        live.add(input.sessionID)
        const text = await brief(input.sessionID)
        if (text !== "") output.system.push(text)
      } catch {
        // Fail open: the request goes without the brief.
      }
    },
    event: async ({ event }) => {
      try {
        const info = event.properties?.info
        if ((event.type === "session.created" || event.type === "session.updated") && info?.parentID) children.add(info.id)
        const sessionID = event.properties?.sessionID ?? info?.id
        if (!sessionID || children.has(sessionID) || !live.has(sessionID)) return
        // The turn ended (Stop). opencode has no answer that keeps a turn going, so no hand-over is
        // asked for (stop_hook_active): tagged messages wait for the next prompt or a resume.
        if (event.type === "session.idle")
          await ask({ hook_event_name: "Stop", session_id: sessionID, cwd: directory, stop_hook_active: true })
        if (event.type === "session.deleted") await end(sessionID, "deleted")
      } catch {
        // Fail open.
      }
    },
    // opencode stops (the TUI quits, \`opencode run\` ends): every session it served is offline.
    dispose: async () => {
      try {
        for (const sessionID of [...live]) await end(sessionID, "exit")
      } catch {
        // Fail open.
      }
    },
  }
}
`
}

/** Whether the project uses opencode: it has a `.opencode/` folder or an `opencode.json(c)`. */
export function usesOpencode(root: string): boolean {
  return ['.opencode', 'opencode.json', 'opencode.jsonc'].some((name) => existsSync(join(root, name)))
}
