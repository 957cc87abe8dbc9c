import type { CommandSpec, OptionSpec } from './command.ts'
import { defaultServePort } from './serve-port.ts'

/**
 * Every CLI command, in the order `--help` lists them: what each accepts, as data, and where its
 * implementation lives. This file imports nothing that runs, so `--help`, `--version` and each
 * command load only what that command needs (docs/performance.md, "CLI start-up"). docs/cli.md
 * has a table with one row per entry here, kept equal by test/cli-docs.test.ts.
 */

const sinceOption: OptionSpec = {
  flags: '--since <date|Nd>',
  description: 'capture window start: an ISO date (2026-11-01) or a count back (14d, 12h); default 14d',
}

export const commands: readonly CommandSpec[] = [
  {
    name: 'init',
    summary:
      'Record this repository as a sangam project (local SQLite; nothing leaves the machine unless --server attaches it)',
    options: [
      {
        flags: '-y, --yes',
        description: 'register the MCP server with Claude Code and Codex without asking',
      },
      { flags: '--no-mcp', description: 'do not register the MCP server' },
      {
        flags: '--server <url>',
        description: 'create the project on this team server with a fresh key and attach this checkout to it',
      },
      {
        flags: '--share-tool-output',
        description: 'share tool output with the team too (not shared by default)',
      },
      { flags: '--no-share-tool-output', description: 'keep tool output on this machine (the default)' },
    ],
    load: () => import('./commands/setup/init.ts'),
  },
  {
    name: 'join',
    summary:
      "Attach this checkout to a teammate's team server: checks the key, then fetches everything shared so far",
    arguments: [
      {
        name: 'connection',
        description:
          'the line `sangam connection` prints (URL#project#key); omit it to read the line from stdin',
      },
    ],
    options: [
      {
        flags: '--share-tool-output',
        description: 'share tool output with the team too (not shared by default)',
      },
    ],
    load: () => import('./commands/setup/join.ts'),
  },
  {
    name: 'connection',
    summary:
      'Print the line a teammate pastes into sangam join (it holds the project key: share it privately)',
    load: () => import('./commands/setup/connection.ts'),
  },
  {
    name: 'install-hooks',
    summary:
      'Install the hooks that enforce leases in Claude Code, Codex and git push (--uninstall removes them)',
    options: [
      {
        flags: '--uninstall',
        description: 'remove sangam hooks, leaving every other hook and setting as it was',
      },
      {
        flags: '--user',
        description: 'use the user-level Claude Code and Codex configuration instead of the project',
      },
    ],
    load: () => import('./commands/setup/install-hooks.ts'),
  },
  {
    name: 'up',
    summary:
      "Run the daemon in the foreground: catch up with this project's transcripts, then capture them live",
    options: [sinceOption],
    longRunning: true,
    load: () => import('./commands/setup/up.ts'),
  },
  {
    name: 'index',
    summary: "Capture this project's transcripts in the window once (backfill), with progress on stderr",
    options: [sinceOption],
    load: () => import('./commands/memory/index-transcripts.ts'),
  },
  {
    name: 'doctor',
    summary:
      'Show what sangam sees: every transcript line in the window accounted for, and whether a daemon runs',
    options: [
      sinceOption,
      {
        flags: '--transcripts <file...>',
        description: 'account for these transcript files instead (any project, any age); stores nothing',
      },
    ],
    load: () => import('./commands/setup/doctor.ts'),
  },
  {
    name: 'brief',
    summary: 'Who was active, what landed since your last brief, recent notes (at most 2,000 characters)',
    load: () => import('./commands/memory/brief.ts'),
  },
  {
    name: 'search',
    summary: 'Search what agents and humans said and did (all words must match; "quoted phrases")',
    arguments: [
      { name: 'query', description: 'words, or "a phrase" in quotes', required: true, variadic: true },
    ],
    options: [
      { flags: '--vendor <vendor>', description: 'only events from claude, codex or sangam (notes)' },
      {
        flags: '--kind <kinds>',
        description:
          'only these kinds, comma-separated: human, assistant, thinking, tool_call, tool_output, system, note',
      },
      { flags: '--session <id>', description: 'only events of this session' },
      { flags: '--branch <name>', description: 'only events recorded on this branch' },
      { flags: '--since <when>', description: 'from: 14d, 12h, 30m, an ISO date, or all (default 14d)' },
      { flags: '--until <when>', description: 'before: same forms as --since' },
      { flags: '--limit <n>', description: 'at most this many hits, 1–200 (default 20)' },
    ],
    load: () => import('./commands/memory/search.ts'),
  },
  {
    name: 'thread',
    summary: 'Show one moment in context: its human turn and what the agent did until the next',
    arguments: [{ name: 'event-id', description: 'an event id, as search prints it', required: true }],
    options: [
      { flags: '--before <n>', description: 'show at most n events of the turn before the focus' },
      { flags: '--after <n>', description: 'show at most n events of the turn after the focus' },
    ],
    load: () => import('./commands/memory/thread.ts'),
  },
  {
    name: 'note',
    summary: 'Write down a decision the transcripts cannot show (searchable at once, secrets scrubbed)',
    arguments: [{ name: 'text', description: 'the note; quote it or not', required: true, variadic: true }],
    load: () => import('./commands/memory/note.ts'),
  },
  {
    name: 'mcp',
    summary: 'Serve ctx_brief, ctx_search, ctx_thread and ctx_note to an agent over MCP (stdio)',
    longRunning: true,
    noJson: true,
    load: () => import('./commands/memory/mcp.ts'),
  },
  {
    name: 'claim',
    summary: 'Lease paths or globs for yourself (all or none); exits 5 naming the holder when taken',
    arguments: [
      {
        name: 'pattern',
        description: 'paths or globs, relative to the current directory',
        required: true,
        variadic: true,
      },
    ],
    options: [
      {
        flags: '-r, --reason <text>',
        description: 'why you need them (required; shown to whoever is kept out)',
      },
      { flags: '--ttl <duration>', description: 'how long the lease lasts: 30m, 2h, 1h30m, 1d (default 2h)' },
    ],
    load: () => import('./commands/leases/claim.ts'),
  },
  {
    name: 'release',
    summary: 'Release your leases (all, or those named); --force --reason releases another holder’s',
    arguments: [
      {
        name: 'pattern',
        description: 'the patterns to release, as claimed (default: all of yours)',
        variadic: true,
      },
    ],
    options: [
      {
        flags: '--force',
        description: "release another actor's lease on the named patterns (recorded, shown to the team)",
      },
      { flags: '-r, --reason <text>', description: 'why you force it (required with --force)' },
    ],
    load: () => import('./commands/leases/release.ts'),
  },
  {
    name: 'who-has',
    summary: 'Show the live leases covering a file (or overlapping a glob)',
    arguments: [
      {
        name: 'path',
        description: 'a file (relative to the current directory, or absolute) or a glob',
        required: true,
      },
    ],
    load: () => import('./commands/leases/who-has.ts'),
  },
  {
    name: 'leases',
    summary: "List the project's live leases and notable lease history; change lease settings",
    options: [
      {
        flags: '--auto-lease <rung>',
        description: 'how a collision with an auto-lease lands: off, advise, warn, refuse',
      },
      {
        flags: '--auto-lease-ttl <duration>',
        description: 'how long an auto-lease lasts after the last edit (default 10m)',
      },
      { flags: '--claim-ttl <duration>', description: 'how long a claim lasts without --ttl (default 2h)' },
      {
        flags: '--session-end <what>',
        description: "what a session's leases do when it ends: release or keep",
      },
    ],
    load: () => import('./commands/leases/leases.ts'),
  },
  {
    name: 'serve',
    summary: 'Run the team sync server locally in workerd (the same Worker that deploys to Cloudflare)',
    options: [
      { flags: '--host <address>', description: 'address to listen on (default 127.0.0.1)' },
      {
        flags: '--port <number>',
        description: `port to listen on; 0 picks a free one (default ${defaultServePort})`,
      },
      { flags: '--data <dir>', description: 'where projects are stored (default $SANGAM_HOME/server)' },
    ],
    longRunning: true,
    load: () => import('./commands/server/serve.ts'),
  },
]
