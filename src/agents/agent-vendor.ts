import type { VendorName } from '../shared/vendor-names.ts'
import type { TranscriptRoot } from './transcript-locations.ts'

/** A vendor CLI invocation: its arguments, and the prompt on stdin (null when the channel takes it in argv). */
export interface VendorCommand {
  readonly args: readonly string[]
  readonly stdin: string | null
}

/** How a turn is started through the vendor's own CLI (delivery's spawned channels). */
export type SpawnChannel = 'resume' | 'queue' | 'background' | 'new'

/**
 * Each vendor's own directory, from the environment (`config/environment.ts`: `$CLAUDE_CONFIG_DIR`,
 * `$CODEX_HOME`, or their defaults under the home directory). A new vendor adds its field.
 */
export interface VendorHomes {
  readonly claudeConfigDir: string
  readonly codexHome: string
  readonly geminiDir: string
  /** sangam's own data directory, where its journal of opencode's database lives. */
  readonly sangamHome: string
}

/** What the installed CLI's `--help` lists beyond a headless resume. */
export interface HelpAbilities {
  /** `codex queue` (Codex 0.171+): a message queued into a thread, run by Codex's own daemon. */
  readonly queue: boolean
  /** `claude --bg` (Claude Code 2.1.332+): a turn in a background session. */
  readonly background: boolean
  /** `claude agents --json` (Claude Code 2.1.332+): the CLI lists its live sessions. */
  readonly listsAgents: boolean
}

/**
 * One agent vendor as the features see it: everything they ask of a vendor by its name, so that a
 * feature calls `vendorFor(name).x` instead of comparing the name. A vendor is one folder,
 * `src/agents/<name>/`, with this descriptor (`<name>-vendor.ts`) and its transcript reader at the
 * top and its other parts in layer folders inside (`core/`, `store/`, `services/`, `hooks/`,
 * `install/`); one line in `vendors.ts` and one in `transcript-readers.ts` (the reader is apart: it
 * brings the secret scrubber, which the hooks must not load). Parts that run above the agents layer (a wake in
 * place, an installer) are reached from the entry points that compose them, not through here.
 */
export interface AgentVendor {
  /** The name stored with every event, lease actor and session (`claude`, `codex`). */
  readonly name: VendorName
  /** The name a person knows the CLI by (`Claude Code`). */
  readonly displayName: string
  /** The executable looked up on PATH and in the usual install places. */
  readonly executable: string
  /** Where the vendor writes its transcripts, and their layout (for discovery and the watcher). */
  transcriptRoots(homes: VendorHomes): readonly TranscriptRoot[]
  /** The version of the CLI that ran a hook, from the hook's environment; null when it cannot tell. */
  hostVersion(env: Readonly<Record<string, string | undefined>>): string | null
  /** What a Stop hook prints when the session simply rests (Claude Code: nothing; Codex requires `{}`). */
  readonly restingStopAnswer: string
  /** What to do for a hook that is installed but has never fired (`doctor`), by hook event. */
  neverFiredHint(event: string): string
  /**
   * A host whose hook events differ from Claude Code's: the agent hook translates its payload in and
   * its answer out at the edge (`hooks/agent-hook-main.ts`); null for Claude Code's shape (Codex's too).
   */
  readonly hookDialect: HookDialect | null
  /**
   * Where a transcript whose records name no working directory says its project is (Gemini CLI's
   * `.project_root` beside its chats); null when the records carry it.
   */
  readonly projectRootBeside: ((transcriptPath: string) => string | null) | null
  /**
   * How delivery continues a session of this vendor (spawned turns, live sessions, waking in
   * place); null while sangam cannot (the vendor's page in docs/vendors/ says why). Its names are
   * delivery's `deliveryVendors`, which `vendors.test.ts` keeps equal.
   */
  readonly delivery: VendorDelivery | null
}

/** A hook payload and answer in another host's terms, translated to and from Claude Code's. */
export interface HookDialect {
  /** The host's own name of the event in a payload (its answer's shape depends on it). */
  eventOf(payload: string): string
  /** The payload as the agent hook reads it. */
  payloadIn(payload: string): string
  /** The agent hook's answer (Claude Code's shape) as the host reads it, for the host's `event`. */
  answerOut(event: string, answer: string): string
}

/** What delivery asks of a vendor it continues sessions of. */
export interface VendorDelivery {
  /** The command line of a spawned turn, checked against the CLI's `--help`. */
  command(channel: SpawnChannel, sessionId: string, prompt: string): VendorCommand
  /** What the installed CLI offers, read from its `--help` text. */
  helpAbilities(help: string): HelpAbilities
  /**
   * Where a new headless session's id is, in the output of its launch (Codex's first `exec --json`
   * event); null when the session takes the id sangam picks (`claude --session-id`).
   */
  readonly newSessionIdIn: ((launchOutput: string) => string | null) | null
  /**
   * The CLI lists its live sessions (`claude agents --json`), so delivery can tell one open in a
   * terminal, at rest in the background, or waiting at a question from a dormant one.
   */
  readonly listsLiveSessions: boolean
  /** How a session of this vendor is woken in place, as `sessions` explains it. */
  readonly wakeInPlace: string
}
