import type { AnyCommandSpec } from './command.ts'
import {
  argument,
  choice,
  choices,
  defineCommand,
  defineInput,
  duration,
  flag,
  integer,
  optionalArgument,
  text,
  texts,
  toggle,
  when,
  words,
} from './command-input.ts'

/**
 * Every CLI command, in the order `--help` lists them: what each accepts, as data, and where its
 * implementation lives. This file imports nothing that runs, so `--help`, `--version` and each
 * command load only what that command needs (docs/performance.md, "CLI start-up"). docs/cli.md
 * has a table with one row per entry here, kept equal by test/cli-docs.test.ts.
 *
 * Each command's input (`xInput`) is declared here and parsed once by main.ts; the command's
 * module types its `run` as `CommandRun<typeof xInput>`. A new command is its module, its input
 * and its entry below.
 */

const since = when(
  '--since <date|Nd>',
  'capture window start: an ISO date (2026-11-01) or a count back (14d, 12h); default 14d',
)

export const defaultServePort = 8787
/** The vendors and event kinds `search` filters on; a test keeps them equal to protocol/event.ts. */
export const searchVendors = ['claude', 'codex', 'sangam'] as const
export const searchKinds = [
  'human',
  'assistant',
  'thinking',
  'tool_call',
  'tool_output',
  'system',
  'note',
] as const
/** Equal to `maxSearchLimit` (services/memory/search.ts), which a test checks. */
export const searchLimitMax = 200
export const autoLeaseRungs = ['off', 'advise', 'warn', 'refuse'] as const

export const initInput = defineInput({
  options: {
    yes: flag('-y, --yes', 'register the MCP server with Claude Code and Codex without asking'),
    mcp: flag('--no-mcp', 'do not register the MCP server'),
    server: text(
      '--server <url>',
      'create the project on this team server with a fresh key and attach this checkout to it',
    ),
    shareToolOutput: toggle(
      '--share-tool-output',
      'share tool output with the team too (not shared by default)',
      { flags: '--no-share-tool-output', description: 'keep tool output on this machine (the default)' },
    ),
  },
})

export const joinInput = defineInput({
  arguments: {
    connection: optionalArgument(
      'connection',
      'the line `sangam connection` prints (URL#project#key); omit it to read the line from stdin (safer: the key stays out of the process list)',
    ),
  },
  options: {
    shareToolOutput: flag(
      '--share-tool-output',
      'share tool output with the team too (not shared by default)',
    ),
  },
})

export const installHooksInput = defineInput({
  options: {
    uninstall: flag('--uninstall', 'remove sangam hooks, leaving every other hook and setting as it was'),
    user: flag('--user', 'use the user-level Claude Code and Codex configuration instead of the project'),
  },
})

export const upInput = defineInput({ options: { since } })

export const indexInput = defineInput({ options: { since } })

export const doctorInput = defineInput({
  options: {
    since,
    transcripts: texts(
      '--transcripts <file...>',
      'account for these transcript files instead (any project, any age); stores nothing',
    ),
  },
})

export const searchInput = defineInput({
  arguments: { query: words('query', 'words, or "a phrase" in quotes', { required: true }) },
  options: {
    vendor: choice('--vendor <vendor>', 'only events from claude, codex or sangam (notes)', searchVendors),
    kind: choices(
      '--kind <kinds>',
      `only these kinds, comma-separated: ${searchKinds.join(', ')}`,
      searchKinds,
    ),
    session: text('--session <id>', 'only events of this session'),
    branch: text('--branch <name>', 'only events recorded on this branch'),
    since: when('--since <when>', 'from: 14d, 12h, 30m, an ISO date, or all (default 14d)', { all: true }),
    until: when('--until <when>', 'before: 14d, 12h, 30m or an ISO date'),
    limit: integer('--limit <n>', `at most this many hits, 1–${searchLimitMax} (default 20)`, {
      min: 1,
      max: searchLimitMax,
    }),
  },
})

export const threadInput = defineInput({
  arguments: { eventId: argument('event-id', 'an event id, as search prints it') },
})

export const noteInput = defineInput({
  arguments: { text: words('text', 'the note; quote it or not', { required: true }) },
})

export const claimInput = defineInput({
  arguments: {
    patterns: words('pattern', 'paths or globs, relative to the current directory', { required: true }),
  },
  options: {
    reason: text('-r, --reason <text>', 'why you need them (required; shown to whoever is kept out)'),
    ttl: duration('--ttl <duration>', 'how long the lease lasts: 30m, 2h, 1h30m, 1d (default 2h)'),
  },
})

export const releaseInput = defineInput({
  arguments: {
    patterns: words('pattern', 'the patterns to release, as claimed (default: all of yours)', {
      required: false,
    }),
  },
  options: {
    force: flag(
      '--force',
      "release another actor's lease on the named patterns (recorded, shown to the team)",
    ),
    reason: text('-r, --reason <text>', 'why you force it (required with --force)'),
  },
})

export const whoHasInput = defineInput({
  arguments: {
    path: argument('path', 'a file (relative to the current directory, or absolute) or a glob'),
  },
})

export const leasesInput = defineInput({
  options: {
    autoLease: choice(
      '--auto-lease <rung>',
      'how a collision with an auto-lease lands: off, advise, warn, refuse',
      autoLeaseRungs,
    ),
    autoLeaseTtl: duration(
      '--auto-lease-ttl <duration>',
      'how long an auto-lease lasts after the last edit (default 10m)',
    ),
    claimTtl: duration('--claim-ttl <duration>', 'how long a claim lasts without --ttl (default 2h)'),
    sessionEnd: choice('--session-end <what>', "what a session's leases do when it ends: release or keep", [
      'release',
      'keep',
    ]),
  },
})

export const serveInput = defineInput({
  options: {
    host: text('--host <address>', 'address to listen on (default 127.0.0.1)'),
    port: integer('--port <number>', `port to listen on; 0 picks a free one (default ${defaultServePort})`, {
      min: 0,
      max: 65_535,
    }),
    data: text('--data <dir>', 'where projects are stored (default $SANGAM_HOME/server)'),
  },
})

export const commands: readonly AnyCommandSpec[] = [
  defineCommand({
    name: 'init',
    summary:
      'Record this repository as a sangam project (local SQLite; nothing leaves the machine unless --server attaches it)',
    input: initInput,
    load: () => import('./commands/setup/init.ts'),
  }),
  defineCommand({
    name: 'join',
    summary:
      "Attach this checkout to a teammate's team server: checks the key, then fetches everything shared so far",
    input: joinInput,
    load: () => import('./commands/setup/join.ts'),
  }),
  defineCommand({
    name: 'connection',
    summary:
      'Print the line a teammate pastes into sangam join (it holds the project key: share it privately)',
    load: () => import('./commands/setup/connection.ts'),
  }),
  defineCommand({
    name: 'install-hooks',
    summary:
      'Install the hooks that enforce leases in Claude Code, Codex and git push (--uninstall removes them)',
    input: installHooksInput,
    load: () => import('./commands/setup/install-hooks.ts'),
  }),
  defineCommand({
    name: 'up',
    summary:
      "Run the daemon in the foreground: catch up with this project's transcripts, then capture them live",
    input: upInput,
    longRunning: true,
    load: () => import('./commands/setup/up.ts'),
  }),
  defineCommand({
    name: 'index',
    summary: "Capture this project's transcripts in the window once (backfill), with progress on stderr",
    input: indexInput,
    load: () => import('./commands/memory/index-transcripts.ts'),
  }),
  defineCommand({
    name: 'doctor',
    summary:
      'Show what sangam sees: every transcript line in the window accounted for, and whether a daemon runs',
    input: doctorInput,
    load: () => import('./commands/setup/doctor.ts'),
  }),
  defineCommand({
    name: 'brief',
    summary: 'Who was active, what landed since your last brief, recent notes (at most 2,000 characters)',
    load: () => import('./commands/memory/brief.ts'),
  }),
  defineCommand({
    name: 'search',
    summary: 'Search what agents and humans said and did (all words must match; "quoted phrases")',
    input: searchInput,
    load: () => import('./commands/memory/search.ts'),
  }),
  defineCommand({
    name: 'thread',
    summary: 'Show one moment in context: its human turn and what the agent did until the next',
    input: threadInput,
    load: () => import('./commands/memory/thread.ts'),
  }),
  defineCommand({
    name: 'note',
    summary: 'Write down a decision the transcripts cannot show (searchable at once, secrets scrubbed)',
    input: noteInput,
    load: () => import('./commands/memory/note.ts'),
  }),
  defineCommand({
    name: 'mcp',
    summary: "Serve sangam's memory and lease tools to an agent over MCP (stdio); --help lists them",
    longRunning: true,
    noJson: true,
    moreHelp: async () => (await import('../mcp/tools.ts')).describeTools(),
    load: () => import('./commands/memory/mcp.ts'),
  }),
  defineCommand({
    name: 'claim',
    summary: 'Lease paths or globs for yourself (all or none); exits 5 naming the holder when taken',
    input: claimInput,
    load: () => import('./commands/leases/claim.ts'),
  }),
  defineCommand({
    name: 'release',
    summary: 'Release your leases (all, or those named); --force --reason releases another holder’s',
    input: releaseInput,
    load: () => import('./commands/leases/release.ts'),
  }),
  defineCommand({
    name: 'who-has',
    summary: 'Show the live leases covering a file (or overlapping a glob)',
    input: whoHasInput,
    load: () => import('./commands/leases/who-has.ts'),
  }),
  defineCommand({
    name: 'leases',
    summary: "List the project's live leases and notable lease history; change lease settings",
    input: leasesInput,
    load: () => import('./commands/leases/leases.ts'),
  }),
  defineCommand({
    name: 'serve',
    summary: 'Run the team sync server locally in workerd (the same Worker that deploys to Cloudflare)',
    input: serveInput,
    longRunning: true,
    load: () => import('./commands/server/serve.ts'),
  }),
]
