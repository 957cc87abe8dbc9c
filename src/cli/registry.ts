import type { AnyCommandSpec } from './command.ts'
import { defineCommand } from './command-input.ts'
import {
  deliveriesInput,
  sendInput,
  sessionsInput,
  startInput,
  stopInput,
} from './commands/delivery/inputs.ts'
import { deleteInput, laneInput, laneLogInput, syncInput } from './commands/lanes/inputs.ts'
import { claimInput, leasesInput, releaseInput, whoHasInput } from './commands/leases/inputs.ts'
import { indexInput, noteInput, searchInput, threadInput } from './commands/memory/inputs.ts'
import {
  alertsInput,
  boardInput,
  chatInput,
  codexInput,
  identifyInput,
  optionSetInput,
  optionsInput,
  postInput,
  readInput,
  readyInput,
  rulesInput,
  targetsInput,
  threadCloseInput,
  threadOpenInput,
  threadsInput,
} from './commands/room/inputs.ts'
import { serveInput } from './commands/server/inputs.ts'
import { doctorInput, initInput, installHooksInput, joinInput, upInput } from './commands/setup/inputs.ts'
import { uiInput } from './commands/ui/inputs.ts'

/**
 * Every CLI command, in the order `--help` lists them: what each accepts, as data, and where its
 * implementation lives. This file imports nothing that runs, so `--help`, `--version` and each
 * command load only what that command needs (docs/performance.md, "CLI start-up"). docs/cli.md
 * has a table with one row per entry here, kept equal by test/cli-docs.test.ts.
 *
 * Each command's input (`xInput`) is declared in its feature's `commands/<feature>/inputs.ts`
 * and parsed once by main.ts; the command's module types its `run` as `CommandRun<typeof
 * xInput>`. A new command is its module, its input and its entry below.
 */

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
      'Install the hooks that enforce leases in Claude Code, Codex, Gemini CLI and git push (--uninstall removes them)',
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
    name: 'post',
    summary: 'Post a message to the room (--to @handle|@human|#worktree; mentions in the text address too)',
    input: postInput,
    load: () => import('./commands/room/post.ts'),
  }),
  defineCommand({
    name: 'read',
    summary: "Read the room's messages in its one order (--after ID for what came since)",
    input: readInput,
    load: () => import('./commands/room/read.ts'),
  }),
  defineCommand({
    name: 'thread-open',
    summary: 'Open a thread in the room (--audience human-loop waits on a human)',
    input: threadOpenInput,
    load: () => import('./commands/room/thread-open.ts'),
  }),
  defineCommand({
    name: 'thread-close',
    summary: 'Close a thread of the room; it takes no more posts',
    input: threadCloseInput,
    load: () => import('./commands/room/thread-close.ts'),
  }),
  defineCommand({
    name: 'threads',
    summary: "List the room's open threads (--all: closed ones too)",
    input: threadsInput,
    load: () => import('./commands/room/threads.ts'),
  }),
  defineCommand({
    name: 'board',
    summary: "The room's board: backlog, doing, blocked, done, derived from the threads as you read it",
    input: boardInput,
    load: () => import('./commands/room/board.ts'),
  }),
  defineCommand({
    name: 'identify',
    summary:
      'Claim a handle for a session in the room (it stays through role changes), or name this machine with --machine',
    input: identifyInput,
    load: () => import('./commands/room/identify.ts'),
  }),
  defineCommand({
    name: 'targets',
    summary: 'List who and where the room can address: agents (state, handle, machine), people and worktrees',
    input: targetsInput,
    load: () => import('./commands/room/targets.ts'),
  }),
  defineCommand({
    name: 'ready',
    summary:
      'Would each worktree merge into main, and which would conflict with each other (uncommitted work counts)',
    input: readyInput,
    load: () => import('./commands/room/ready.ts'),
  }),
  defineCommand({
    name: 'rules',
    summary: "List the room's house rules at their rungs; rules set <rule> <rung> changes one",
    input: rulesInput,
    load: () => import('./commands/room/rules.ts'),
  }),
  defineCommand({
    name: 'alerts',
    summary: 'What the room should look at now: rule conditions, decisions needed, blockers, handoffs',
    input: alertsInput,
    load: () => import('./commands/room/alerts.ts'),
  }),
  defineCommand({
    name: 'options',
    summary: 'List every project option (leases, sync, room) with its value and default',
    input: optionsInput,
    load: () => import('./commands/room/options.ts'),
  }),
  defineCommand({
    name: 'option-set',
    summary: 'Set one project option by its full name (room.stale-days 14)',
    input: optionSetInput,
    load: () => import('./commands/room/option-set.ts'),
  }),
  defineCommand({
    name: 'chat',
    summary: 'Talk in the room from a terminal: recent messages, new ones live, each line posted, /help',
    input: chatInput,
    longRunning: true,
    noJson: true,
    load: () => import('./commands/room/chat.ts'),
  }),
  defineCommand({
    name: 'serve',
    summary: 'Run the team sync server locally in workerd (the same Worker that deploys to Cloudflare)',
    input: serveInput,
    longRunning: true,
    load: () => import('./commands/server/serve.ts'),
  }),
  defineCommand({
    name: 'sessions',
    summary:
      "This project's agent sessions (Claude Code, Codex, Gemini CLI, opencode), newest first, with how a tag would reach each",
    input: sessionsInput,
    load: () => import('./commands/delivery/sessions.ts'),
  }),
  defineCommand({
    name: 'send',
    summary: 'Continue a session now with a message (posted to the room; the same guards as a tag)',
    input: sendInput,
    load: () => import('./commands/delivery/send.ts'),
  }),
  defineCommand({
    name: 'start',
    summary:
      'Start a new headless Claude Code, Codex, Gemini CLI or opencode session in a worktree of this project',
    input: startInput,
    load: () => import('./commands/delivery/start.ts'),
  }),
  defineCommand({
    name: 'stop',
    summary: 'End the turn sangam started in a session, from any process',
    input: stopInput,
    load: () => import('./commands/delivery/stop.ts'),
  }),
  defineCommand({
    name: 'deliveries',
    summary: 'The delivery ledger: each tag weighed for each session, why, and every turn started (costs)',
    input: deliveriesInput,
    load: () => import('./commands/delivery/deliveries.ts'),
  }),
  defineCommand({
    name: 'codex',
    summary:
      'Run Codex with its app-server on a private socket, so a tag can start a turn in the live session (arguments go to codex)',
    input: codexInput,
    longRunning: true,
    passThrough: true,
    load: () => import('./commands/room/codex.ts'),
  }),
  defineCommand({
    name: 'lane',
    summary:
      'Create or re-enter a lane: a worktree of its own on lane/<name> for one agent (or a human, --no-agent); reports unfinished work first',
    input: laneInput,
    load: () => import('./commands/lanes/lane.ts'),
  }),
  defineCommand({
    name: 'sync',
    summary:
      'Move this lane to its next safe state: catch up, publish to main (directly or by a clean merge), or start a semantic task; exits 12 with what to do when refused',
    input: syncInput,
    load: () => import('./commands/lanes/sync.ts'),
  }),
  defineCommand({
    name: 'status',
    summary:
      'Show main, the integration lock, the guard hooks and every lane: state, head, dirty, behind, task, next step',
    load: () => import('./commands/lanes/status.ts'),
  }),
  defineCommand({
    name: 'log',
    summary:
      'List the latest integration events of every machine (syncs, publishes, tasks, takeovers, deletions)',
    input: laneLogInput,
    load: () => import('./commands/lanes/log.ts'),
  }),
  defineCommand({
    name: 'delete',
    summary:
      'Retire a lane: its work saved under refs/sangam/deleted/ and a manifest, then its worktree and branch removed',
    input: deleteInput,
    load: () => import('./commands/lanes/delete.ts'),
  }),
  defineCommand({
    name: 'ui',
    summary: 'Open the dashboard: the team at a glance, live, in a browser (127.0.0.1 only, a token per run)',
    input: uiInput,
    longRunning: true,
    load: () => import('./commands/ui/ui.ts'),
  }),
]
