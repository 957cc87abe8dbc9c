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
 * `SessionStart` and adds its context to the system prompt
 * of that request and every later one of the session, as Claude Code and Codex keep theirs.
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

/** True when `file` (or its fallback name) is our plugin. */
export function holdsOurPlugin(file: string): boolean {
  return [file, join(dirname(file), 'sangam-leases.js')].some((candidate) =>
    (readOrNull(candidate) ?? '').startsWith(pluginMarker),
  )
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
  return `${pluginMarker} file leases for opencode, written by \`sangam install-hooks\` (removed by \`sangam install-hooks --uninstall\`).
// It names this machine's sangam, so it is kept out of git. Edits are checked by sangam's agent hook.
import { spawnSync } from "node:child_process"

const hook = ${JSON.stringify(hookEntry)}
const edits = new Set(["edit", "write", "multiedit", "apply_patch", "patch"])
const briefs = new Map()

/** The hook's answer (hookSpecificOutput), or undefined when it could not run or said nothing. */
function ask(payload) {
  const run = spawnSync("node", [hook, "opencode"], {
    input: JSON.stringify(payload),
    encoding: "utf8",
    timeout: 10000,
  })
  if (run.stderr) process.stderr.write(run.stderr)
  try {
    return JSON.parse(run.stdout || "{}").hookSpecificOutput
  } catch {
    return undefined
  }
}

export const SangamLeases = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    if (!edits.has(input.tool)) return
    const answer = ask({
      hook_event_name: "PreToolUse",
      session_id: input.sessionID,
      cwd: directory,
      tool_name: input.tool,
      tool_input: output.args ?? {},
    })
    if (answer?.permissionDecision === "deny") throw new Error(answer.permissionDecisionReason || "sangam denied this edit")
  },
  "experimental.chat.system.transform": async (input, output) => {
    if (!input.sessionID || !Array.isArray(output.system)) return
    let brief = briefs.get(input.sessionID)
    if (brief === undefined) {
      const answer = ask({ hook_event_name: "SessionStart", session_id: input.sessionID, cwd: directory, source: "startup" })
      brief = typeof answer?.additionalContext === "string" ? answer.additionalContext : ""
      briefs.set(input.sessionID, brief)
    }
    if (brief !== "") output.system.push(brief)
  },
})
`
}

/** Whether the project uses opencode: it has a `.opencode/` folder or an `opencode.json(c)`. */
export function usesOpencode(root: string): boolean {
  return ['.opencode', 'opencode.json', 'opencode.jsonc'].some((name) => existsSync(join(root, name)))
}
