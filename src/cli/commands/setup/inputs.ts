import { captureSince } from '../../capture-since.ts'
import { defineInput, flag, optionalArgument, text, texts, toggle } from '../../command-input.ts'
import { uiPort } from '../ui/inputs.ts'

/**
 * What the set-up commands accept, declared once: main.ts parses it before a command loads
 * (src/cli/registry.ts lists the commands), and each command types its `run` by its input.
 */

export const initInput = defineInput({
  options: {
    yes: flag(
      '-y, --yes',
      'register the MCP server with Claude Code, Codex, Gemini CLI and opencode without asking',
    ),
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
    guard: flag(
      '--guard',
      'protect main: git hooks refuse commits, merges, rebases, moves and pushes of main except by `sangam sync` (`sangam lane` does this too)',
    ),
    main: text(
      '--main <branch>',
      'the branch --guard protects (default: main if it exists, else the current branch)',
    ),
    adopt: text(
      '--adopt <projectId>',
      "make another store of this checkout (doctor and init list them) this checkout's project; the one in use stays as it is",
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
    user: flag(
      '--user',
      'use the user-level configuration of Claude Code, Codex, Gemini CLI and opencode instead of the project',
    ),
  },
})

export const upInput = defineInput({
  options: {
    since: captureSince,
    ui: flag('--ui', 'serve the dashboard too, as sangam ui does, for as long as the daemon runs'),
    uiPort: {
      ...uiPort,
      flags: '--ui-port <number>',
      description: 'with --ui: the port (default: a free one)',
    },
    open: flag('--no-open', 'with --ui: print the URL only; do not open a browser'),
  },
})

export const doctorInput = defineInput({
  options: {
    since: captureSince,
    transcripts: texts(
      '--transcripts <file...>',
      'account for these transcript files instead (any project, any age); stores nothing',
    ),
  },
})
