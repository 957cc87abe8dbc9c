import { spawn } from 'node:child_process'
import { appendFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { type CliResult, isolatedEnv, runCli, runCliJson } from '../helpers/run-cli.ts'
import { type TmpRepo, tmpDir, tmpGitRepo } from '../helpers/tmp-git-repo.ts'
import { type AgentClis, agentClisDir, agentClisIn, geminiCliDir, geminiCliIn } from './agent-clis.ts'
import { definedEnv } from './defined-env.ts'
import { type ClaudeStep, type FakeAnthropic, startFakeAnthropic } from './fake-anthropic.ts'
import { type FakeGemini, type GeminiStep, startFakeGemini } from './fake-gemini.ts'
import { type CodexStep, type FakeOpenAi, startFakeOpenAi } from './fake-openai.ts'
import { type ChatStep, type FakeOpenAiChat, startFakeOpenAiChat } from './fake-openai-chat.ts'
import { isIsolated } from './network-namespace.ts'
import type { Script } from './user-turns.ts'

/**
 * One scenario's world: a scratch HOME (with its own Claude config dir, Codex home and sangam
 * home), a real git repository whose human is `dev@example.com`, and a fake model server for each
 * CLI. The real Claude Code and Codex run against them; sangam is set up through its own CLI
 * only (`init`, `install-hooks`, `claim`…), exactly as a user would.
 */
export const human = 'dev@example.com'

export interface AgentLab extends AsyncDisposable {
  readonly home: string
  readonly repo: TmpRepo
  readonly anthropic: FakeAnthropic
  readonly openai: FakeOpenAi
  /** The fake Gemini API the real Gemini CLI is pointed at (`GOOGLE_GEMINI_BASE_URL`). */
  readonly geminiApi: FakeGemini
  /** opencode's model server: an OpenAI-compatible Chat Completions API (its custom provider). */
  readonly chat: FakeOpenAiChat
  /** The environment sangam and the CLIs run with. */
  readonly env: Record<string, string | undefined>
  sangam(args: readonly string[], extraEnv?: Record<string, string>): Promise<CliResult>
  sangamJson<T>(args: readonly string[], extraEnv?: Record<string, string>): Promise<T>
  /**
   * Adds what the Codex TUI needs to start unattended (the repository trusted, no notices, no
   * managed background daemon) and returns the environment to run it with: a dead HTTPS proxy, so
   * the one lookup the TUI cannot be told to skip (its announcement tip on GitHub) goes nowhere
   * instead of to the DNS sink (the model server is plain HTTP on 127.0.0.1, never proxied).
   */
  codexTui(): Record<string, string | undefined>
  /** The rollout of a Codex thread, if it was written. */
  codexRollout(threadId: string): string | null
  /** The project's database file (after `init` or the first hook), for reading the store directly. */
  databaseFile(): string
  /** What the hooks last recorded (their heartbeats), for failure messages. */
  heartbeats(): string
  /**
   * One prompt in print mode; `resume` continues that session (a second prompt of it). `steps`
   * replaces the fake server's script; undefined keeps the one set (say, per turn) before. `cwd`
   * is where the CLI runs (a lane's worktree), the repository's root when absent.
   */
  claude(
    prompt: string,
    steps: Script<ClaudeStep> | undefined,
    resume?: string,
    cwd?: string,
  ): Promise<AgentRun>
  /**
   * One prompt of Gemini CLI in headless mode (`gemini -p … --yolo`: tools run unasked, hooks
   * still decide); `resume` continues that session (`--resume <id>`).
   */
  gemini(
    prompt: string,
    steps: Script<GeminiStep> | undefined,
    resume?: string,
    cwd?: string,
  ): Promise<AgentRun>
  /** One prompt of `codex exec`; `resume` continues that thread (`codex exec resume <id>`). */
  codex(
    prompt: string,
    steps: Script<CodexStep> | undefined,
    resume?: string,
    cwd?: string,
  ): Promise<AgentRun>
  /**
   * One prompt of `opencode run` (the prompt on stdin); `resume` continues that session
   * (`--session <id>`). Its session is then copied from opencode's database by sangam's journal.
   */
  opencode(
    prompt: string,
    steps: Script<ChatStep> | undefined,
    resume?: string,
    cwd?: string,
  ): Promise<AgentRun>
}

export interface AgentRun {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
  readonly sessionId: string | null
  /** The session's transcript (Claude) or rollout (Codex), if it was written. */
  readonly transcript: string | null
}

/** One machine of a team, for a scenario that runs several labs against one team server. */
export interface AgentLabOptions {
  /** The repository's human (git `user.email`), `human` when absent. */
  readonly user?: string
  /**
   * The shared remote this machine clones (it already holds the sources another lab committed),
   * instead of a repository of its own.
   */
  readonly cloneOf?: string
}

export async function openAgentLab(options: AgentLabOptions = {}): Promise<AgentLab> {
  if (!isIsolated())
    throw new Error('the agent suite must run inside its network namespace: npm run test:agents')
  const clis = agentClisIn(agentClisDir(process.env))
  const home = tmpDir('sangam-agents-')
  const repo = tmpGitRepo({ user: options.user ?? human, cloneOf: options.cloneOf })
  if (options.cloneOf === undefined) {
    repo.write('src/a.ts', 'export const a = 1\n')
    repo.write('src/b.ts', 'export const b = 1\n')
    repo.commit('sources')
  }
  // A project that uses opencode (an empty `.opencode/`): install-hooks and init then serve it too.
  mkdirSync(join(repo.path, '.opencode'))
  const anthropic = await startFakeAnthropic()
  const openai = await startFakeOpenAi()
  const geminiApi = await startFakeGemini()
  const gemini = geminiCliIn(geminiCliDir(process.env))
  const env = { ...labEnv(home.path, clis, anthropic.baseUrl), ...geminiEnv(geminiApi.baseUrl) }
  writeCodexConfig(env.CODEX_HOME ?? '', openai.baseUrl)
  writeGeminiSettings(home.path)
  const chat = await startFakeOpenAiChat()
  writeOpencodeConfig(join(home.path, '.config', 'opencode'), chat.baseUrl)
  const lab: AgentLab = {
    home: home.path,
    repo,
    anthropic,
    openai,
    geminiApi,
    chat,
    env,
    sangam: (args, extraEnv = {}) =>
      runCli(args, { cwd: repo.path, env: { ...env, ...extraEnv }, timeoutMs: 120_000 }),
    sangamJson: (args, extraEnv = {}) =>
      runCliJson(args, { cwd: repo.path, env: { ...env, ...extraEnv }, timeoutMs: 120_000 }),
    codexTui() {
      appendFileSync(join(env.CODEX_HOME ?? '', 'config.toml'), codexTuiConfig(repo.path))
      return {
        ...env,
        HTTPS_PROXY: 'http://127.0.0.1:9',
        https_proxy: 'http://127.0.0.1:9',
        NO_PROXY: '127.0.0.1,localhost',
        no_proxy: '127.0.0.1,localhost',
      }
    },
    codexRollout: (threadId) => findFile(join(env.CODEX_HOME ?? '', 'sessions'), threadId),
    databaseFile() {
      const projects = join(env.SANGAM_HOME ?? '', 'projects')
      const [project, ...more] = safeList(projects)
      if (project === undefined || more.length > 0)
        throw new Error(`expected one project under ${projects}, found ${safeList(projects).join(', ')}`)
      return join(projects, project, 'sangam.db')
    },
    heartbeats() {
      const projects = join(env.SANGAM_HOME ?? '', 'projects')
      const files: string[] = []
      for (const project of safeList(projects)) {
        const dir = join(projects, project, 'hook-heartbeat')
        for (const name of safeList(dir)) files.push(readFileSync(join(dir, name), 'utf8').trim())
      }
      return files.join('\n')
    },
    async claude(prompt, steps, resume, cwd = repo.path) {
      if (steps !== undefined) anthropic.script(steps)
      const args = [
        ...(resume === undefined ? [] : ['--resume', resume]),
        '-p',
        prompt,
        '--output-format',
        'json',
        '--permission-mode',
        'acceptEdits',
        '--allowedTools',
        'Bash',
      ]
      const run = await runProcess(clis.claude, args, cwd, env)
      const sessionId = claudeSessionId(run.stdout)
      const transcript =
        sessionId === null
          ? null
          : findFile(join(env.CLAUDE_CONFIG_DIR ?? '', 'projects'), `${sessionId}.jsonl`)
      return { ...run, sessionId, transcript }
    },
    async gemini(prompt, steps, resume, cwd = repo.path) {
      if (steps !== undefined) geminiApi.script(steps)
      const args = [...(resume === undefined ? [] : ['--resume', resume]), '-p', prompt, '--yolo']
      const started = Date.now()
      const run = await runProcess(gemini, args, cwd, env)
      const transcript =
        resume === undefined
          ? newestGeminiSession(home.path, started)
          : findFile(join(home.path, '.gemini', 'tmp'), resume.slice(0, 8))
      return { ...run, sessionId: transcript === null ? null : geminiSessionId(transcript), transcript }
    },
    async codex(prompt, steps, resume, cwd = repo.path) {
      if (steps !== undefined) openai.script(steps)
      // `exec resume` takes only some of exec's flags; the rest go before the subcommand.
      const flags = ['--sandbox', 'workspace-write', '--skip-git-repo-check']
      const args =
        resume === undefined
          ? ['exec', '--json', ...flags, prompt]
          : ['exec', ...flags, 'resume', '--json', resume, prompt]
      const run = await runProcess(clis.codex, args, cwd, env)
      const sessionId = codexThreadId(run.stdout) ?? resume ?? null
      const transcript =
        sessionId === null ? null : findFile(join(env.CODEX_HOME ?? '', 'sessions'), sessionId)
      return { ...run, sessionId, transcript }
    },
    async opencode(prompt, steps, resume, cwd = repo.path) {
      if (steps !== undefined) chat.script(steps)
      // opencode installs its plugin SDK into every config folder it loads (a project's
      // `.opencode/` once sangam's plugin is there); a lock naming it keeps that off the network.
      offlineConfigFolder(join(cwd, '.opencode'))
      const args = ['run', '--format', 'json', ...(resume === undefined ? [] : ['--session', resume])]
      const run = await runProcess(clis.opencode, args, cwd, env, prompt)
      const sessionId = opencodeSessionId(run.stdout) ?? resume ?? null
      // Its transcript is sangam's journal of the session, which `index` or the daemon writes.
      const journal = join(env.SANGAM_HOME ?? '', 'opencode-journal', `${sessionId}.jsonl`)
      return { ...run, sessionId, transcript: sessionId === null ? null : journal }
    },
    async [Symbol.asyncDispose]() {
      await anthropic.close()
      await openai.close()
      await geminiApi.close()
      await chat.close()
      await endProcessesOf(env.CLAUDE_CONFIG_DIR ?? '')
      await repo[Symbol.asyncDispose]()
      await home[Symbol.asyncDispose]()
    },
  }
  return lab
}

/**
 * Ends what the lab's CLIs left running with its Claude config (the background runner `claude
 * --bg` starts outlives `claude daemon stop` and goes on writing there, so the lab's home could not
 * be removed): processes whose environment names `configDir`, found in /proc, SIGTERM then SIGKILL
 * after 3 s. Only processes this lab started carry that directory.
 */
async function endProcessesOf(configDir: string): Promise<void> {
  if (configDir === '') return
  const marker = `CLAUDE_CONFIG_DIR=${configDir}\0`
  const ours = (): number[] =>
    readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
      .filter((name) => {
        try {
          return `${readFileSync(`/proc/${name}/environ`, 'latin1')}\0`.includes(marker)
        } catch {
          return false
        }
      })
      .map(Number)
  const signal = (pids: number[], name: NodeJS.Signals): void => {
    for (const pid of pids) {
      try {
        process.kill(pid, name)
      } catch {}
    }
  }
  signal(ours(), 'SIGTERM')
  for (let waited = 0; waited < 3000 && ours().length > 0; waited += 100)
    await new Promise((done) => setTimeout(done, 100))
  signal(ours(), 'SIGKILL')
}

function labEnv(home: string, clis: AgentClis, anthropicUrl: string): Record<string, string | undefined> {
  const env = isolatedEnv(home, {
    PATH: `${clis.binDir}:${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    ANTHROPIC_BASE_URL: anthropicUrl,
    ANTHROPIC_API_KEY: 'sk-ant-fake-offline-0000',
    // Without these Claude Code looks up api.anthropic.com, GitHub and its plugin marketplace.
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    // opencode: no update check, no model catalogue from models.dev, no language-server downloads.
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    SANGAM_FAKE_OPENAI_KEY: 'sk-fake-offline-0000',
  })
  mkdirSync(env.CODEX_HOME ?? '', { recursive: true })
  mkdirSync(env.CLAUDE_CONFIG_DIR ?? '', { recursive: true })
  return env
}

/**
 * `gpt-5.5` is in codex-cli 0.171.0's bundled catalog, so requests carry the full tool set
 * (apply_patch included). Analytics and plugins off: otherwise Codex reaches for ChatGPT and GitHub.
 */
function writeCodexConfig(codexHome: string, baseUrl: string): void {
  writeFileSync(
    join(codexHome, 'config.toml'),
    `model = "gpt-5.5"
model_provider = "fake"
check_for_update_on_startup = false

[analytics]
enabled = false

[features]
plugins = false
# Else the TUI starts a managed app-server daemon that can outlive it.
daemon_auto_start = false

[model_providers.fake]
name = "sangam agent suite"
base_url = "${baseUrl}/v1"
wire_api = "responses"
env_key = "SANGAM_FAKE_OPENAI_KEY"
`,
  )
}

/**
 * Gemini CLI against the fake: `GOOGLE_GEMINI_BASE_URL` (0.35+, plain http on loopback allowed) with
 * an API key; the workspace trusted for the run (else headless mode drops to the default approval
 * mode and ignores the project's settings, hooks and MCP servers among them).
 */
function geminiEnv(baseUrl: string): Record<string, string> {
  return {
    GOOGLE_GEMINI_BASE_URL: baseUrl,
    GEMINI_API_KEY: 'gemini-fake-offline-0000',
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
  }
}

/** The user's Gemini settings: the API-key auth, and nothing that reaches Google (statistics, updates). */
function writeGeminiSettings(home: string): void {
  mkdirSync(join(home, '.gemini'), { recursive: true })
  writeFileSync(
    join(home, '.gemini', 'settings.json'),
    `${JSON.stringify(
      {
        security: { auth: { selectedType: 'gemini-api-key' } },
        privacy: { usageStatisticsEnabled: false },
        general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
        telemetry: { enabled: false },
      },
      null,
      2,
    )}\n`,
  )
}

/** The Gemini session file written since `since` (a headless run writes one), or null. */
function newestGeminiSession(home: string, since: number): string | null {
  const tmp = join(home, '.gemini', 'tmp')
  const found: { path: string; at: number }[] = []
  for (const project of safeList(tmp)) {
    const chats = join(tmp, project, 'chats')
    for (const name of safeList(chats)) {
      if (!name.startsWith('session-') || !name.endsWith('.jsonl')) continue
      const path = join(chats, name)
      const at = statSync(path).mtimeMs
      if (at >= since - 1000) found.push({ path, at })
    }
  }
  return found.sort((a, b) => b.at - a.at)[0]?.path ?? null
}

/** The session id on a Gemini session file's first line. */
function geminiSessionId(file: string): string | null {
  try {
    const first = JSON.parse(readFileSync(file, 'utf8').split('\n')[0] ?? '') as { sessionId?: unknown }
    return typeof first.sessionId === 'string' ? first.sessionId : null
  } catch {
    return null
  }
}

/** The TUI's extra settings (agentlab's recipe, /work/shared/reference/real-agents.md §4.5). */
function codexTuiConfig(repo: string): string {
  return `
[projects."${repo}"]
trust_level = "trusted"

[notice]
hide_full_access_warning = true

[notice.model_migrations]
"gpt-5.5" = "gpt-6-sol"

[tui]
show_tooltips = false
`
}

function runProcess(
  bin: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string | undefined>,
  stdin?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, {
      cwd,
      env: definedEnv(env),
      stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    })
    if (stdin !== undefined) child.stdin?.end(stdin)
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8')
    })
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8')
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr })
    })
  })
}

/**
 * opencode's user config: a custom OpenAI-compatible provider whose `baseURL` is the fake server
 * (opencode's source: `provider.<id>.options.baseURL`, the AI SDK's openai-compatible package,
 * bundled in the binary), its one model the default and the small (title) model, no sharing, no
 * autoupdate. The folder is kept offline like a project's.
 */
function writeOpencodeConfig(dir: string, baseUrl: string): void {
  mkdirSync(dir, { recursive: true })
  const config = {
    $schema: 'https://opencode.ai/config.json',
    provider: {
      fake: {
        npm: '@ai-sdk/openai-compatible',
        name: 'sangam agent suite',
        options: { baseURL: `${baseUrl}/v1`, apiKey: 'sk-fake-offline-0000' },
        models: { 'fake-model': { name: 'fake model' } },
      },
    },
    model: 'fake/fake-model',
    small_model: 'fake/fake-model',
    autoupdate: false,
    share: 'disabled',
  }
  writeFileSync(join(dir, 'opencode.json'), `${JSON.stringify(config, null, 2)}\n`)
  offlineConfigFolder(dir)
}

/**
 * opencode 1.18 runs an npm install (@npmcli/arborist, registry.npmjs.org) of `@opencode-ai/plugin`
 * in each config folder unless the folder has `node_modules/` and a `package-lock.json` whose root
 * lists it (its Npm.install: "dependencies in sync"). The plugin sangam installs imports nothing.
 */
export function offlineConfigFolder(dir: string): void {
  mkdirSync(join(dir, 'node_modules'), { recursive: true })
  const lock = {
    name: 'opencode-config',
    lockfileVersion: 3,
    requires: true,
    packages: { '': { dependencies: { '@opencode-ai/plugin': '*' } } },
  }
  writeFileSync(join(dir, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`)
}

function opencodeSessionId(stdout: string): string | null {
  for (const line of stdout.split('\n')) {
    try {
      const event = JSON.parse(line) as { sessionID?: unknown }
      if (typeof event.sessionID === 'string') return event.sessionID
    } catch {
      // `--format json` prints one JSON event per line; anything else is not one.
    }
  }
  return null
}

function claudeSessionId(stdout: string): string | null {
  try {
    const result = JSON.parse(stdout) as { session_id?: unknown }
    return typeof result.session_id === 'string' ? result.session_id : null
  } catch {
    return null
  }
}

function codexThreadId(stdout: string): string | null {
  for (const line of stdout.split('\n')) {
    try {
      const event = JSON.parse(line) as { type?: unknown; thread_id?: unknown }
      if (event.type === 'thread.started' && typeof event.thread_id === 'string') return event.thread_id
    } catch {
      // Codex prints only JSON lines with --json; anything else is not the event we want.
    }
  }
  return null
}

/** The first file under `dir` whose name contains `fragment`. */
function findFile(dir: string, fragment: string): string | null {
  let entries: import('node:fs').Dirent[]
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch {
    return null
  }
  for (const entry of entries) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      const found = findFile(path, fragment)
      if (found !== null) return found
    } else if (entry.name.includes(fragment)) return path
  }
  return null
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

/**
 * The lines of a transcript that contain `needle`, for assertions whose failure message must stay
 * readable (a Codex rollout opens with tens of kilobytes of instructions).
 */
export function transcriptLines(file: string | null, needle: string): string {
  if (file === null) return '(no transcript was written)'
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.includes(needle))
  return lines.length === 0 ? `(no line of ${file} contains "${needle}")` : lines.join('\n')
}
