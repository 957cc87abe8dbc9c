import { vendorNames } from '../../../shared/vendor-names.ts'
import { captureSince } from '../../capture-since.ts'
import { argument, choice, choices, defineInput, integer, text, when, words } from '../../command-input.ts'

/**
 * What the memory commands accept, declared once: main.ts parses it before a command loads
 * (src/cli/registry.ts lists the commands), and each command types its `run` by its input.
 */

/** The vendors and event kinds `search` filters on; a test keeps them equal to protocol/event.ts. */
export const searchVendors = [...vendorNames, 'sangam'] as const

export const searchKinds = [
  'human',
  'assistant',
  'thinking',
  'tool_call',
  'tool_output',
  'system',
  'note',
] as const

/** Equal to `maxSearchLimit` (memory/protocol/search-input.ts), which a test checks. */
export const searchLimitMax = 200

export const indexInput = defineInput({ options: { since: captureSince } })

export const searchInput = defineInput({
  arguments: { query: words('query', 'words, or "a phrase" in quotes', { required: true }) },
  options: {
    vendor: choice(
      '--vendor <vendor>',
      `only events from ${vendorNames.join(', ')} or sangam (notes)`,
      searchVendors,
    ),
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

/** Equal to `maxThreadItems` (memory/services/thread.ts), which a test checks. */
export const threadBoundMax = 120

export const threadInput = defineInput({
  arguments: { eventId: argument('event-id', 'an event id, as search prints it') },
  options: {
    before: integer('--before <n>', 'show at most n events of the turn before the focus', {
      min: 0,
      max: threadBoundMax,
    }),
    after: integer('--after <n>', 'show at most n events of the turn after the focus', {
      min: 0,
      max: threadBoundMax,
    }),
  },
})

export const noteInput = defineInput({
  arguments: { text: words('text', 'the note; quote it or not', { required: true }) },
})
