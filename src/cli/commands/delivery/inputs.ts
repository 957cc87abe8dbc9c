import { argument, choice, defineInput, flag, integer, text, words } from '../../command-input.ts'

/** What the delivery commands accept, declared once (src/cli/registry.ts lists them). */

// Declared here, not imported: --help must load no command's code. registry.test.ts keeps it
// equal to delivery's own list, which the MCP tool takes.
export const startVendors = ['claude', 'codex', 'gemini', 'opencode'] as const

export const sessionsInput = defineInput({
  options: {
    limit: integer('--limit <n>', 'at most n sessions, 1–500 (default 50)', { min: 1, max: 500 }),
  },
})

export const sendInput = defineInput({
  arguments: {
    session: argument('session', 'the session: its id, 8+ characters of it, or its @handle'),
    text: words('text', 'what to tell it; quote it or not', { required: true }),
  },
})

export const startInput = defineInput({
  arguments: {
    text: words('text', 'the first prompt of the new session', { required: true }),
  },
  options: {
    vendor: choice('--vendor <vendor>', `${startVendors.join(', ')} (required)`, startVendors),
    worktree: text('--worktree <path>', 'a worktree of this project to run it in (default: here)'),
  },
})

export const stopInput = defineInput({
  arguments: {
    session: argument('session', 'the session whose sangam-started turn to end'),
  },
})

export const deliveriesInput = defineInput({
  options: {
    session: text('--session <session>', "only this session's rows and turns"),
    limit: integer('--limit <n>', 'at most n rows and n turns, 1–1000 (default 50)', { min: 1, max: 1000 }),
    deliver: flag('--deliver', 'first weigh every pending tag now, as the daemon does when it looks'),
  },
})
