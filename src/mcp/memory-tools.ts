import { z } from 'zod'
import { currentBranch } from '../git/branch.ts'
import { eventKindSchema, vendorSchema } from '../memory/protocol/event.ts'
import { noteViewSchema } from '../memory/protocol/note-view.ts'
import { maxSearchLimit } from '../memory/protocol/search-input.ts'
import { searchResultViewSchema } from '../memory/protocol/search-view.ts'
import { threadResultViewSchema } from '../memory/protocol/thread-view.ts'
import { MemoryBrief } from '../memory/services/memory-brief.ts'
import { MemoryNote, maxNoteChars } from '../memory/services/note.ts'
import { renderSearch, renderThread } from '../memory/services/render.ts'
import { MemorySearch } from '../memory/services/search.ts'
import { MemoryThread, maxThreadItems } from '../memory/services/thread.ts'
import { briefSections } from '../project/services/brief-sections.ts'
import { onlyReads } from './mcp-context.ts'
import { type AnyMcpTool, defineTool } from './mcp-tool.ts'

const nullableString = z.string().nullable()
/** Fewer hits than the CLI's 20 by default: each one lands in the agent's context window. */
const agentSearchLimit = 10

const briefTool = defineTool({
  name: 'ctx_brief',
  title: 'Project brief',
  description:
    'What happened in this project since you last asked: agent sessions with new events (Claude Code, Codex, ' +
    'with their human, branch and CLI version), commits that landed on your branch and on main, and notes. ' +
    'At most 2,000 characters. Call it when you start a task or come back to one.',
  input: {},
  // Hosts may hand the model the structured result rather than the text, so it carries the text
  // once and only counts per section: the brief stays within its budget either way.
  output: {
    reader: z.string(),
    previous: nullableString,
    text: z.string(),
    sections: z.array(z.object({ key: z.string(), title: z.string(), shown: z.number(), total: z.number() })),
  },
  readOnly: false,
  run(_input, context) {
    const brief = new MemoryBrief(context.project(onlyReads).db, context.clock, briefSections).brief({
      reader: context.actor(),
      cwd: context.projectDir,
    })
    const sections = brief.sections.map(({ key, title, lines, total }) => ({
      key,
      title,
      shown: lines.length,
      total,
    }))
    return { structured: { ...brief, sections }, text: brief.text }
  },
})

const searchTool = defineTool({
  name: 'ctx_search',
  title: 'Search project memory',
  description:
    "Full-text search over this project's verbatim memory: what humans told the agents (Claude Code, Codex, " +
    'Gemini CLI, opencode), what they answered and thought, their tool calls and output, and notes, with who/when/where for each hit. Every word must ' +
    'occur; "quoted phrases" must occur as written; punctuation and operators are plain text. The human\'s own ' +
    "words rank first. Looks at the last 14 days unless `since` says otherwise. Pass a hit's id to ctx_thread " +
    'to see it in context.',
  input: {
    query: z.string().min(1).describe('words and "quoted phrases", e.g. lease expiry "fencing token"'),
    vendor: vendorSchema.optional().describe('only claude, codex, or sangam (notes)'),
    kinds: z.array(eventKindSchema).optional().describe('only these kinds of event'),
    sessionId: z.string().optional().describe('only this session'),
    branch: z.string().optional().describe('only events recorded on this branch'),
    since: z.string().optional().describe('14d, 12h, 30m, an ISO date, or "all" (default 14d)'),
    until: z.string().optional().describe('same forms as since'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(maxSearchLimit)
      .default(agentSearchLimit)
      .describe(`at most this many hits (default ${agentSearchLimit})`),
  },
  output: searchResultViewSchema.shape,
  readOnly: true,
  run(input, context) {
    const result = new MemorySearch(context.project(onlyReads).db, context.clock).search({
      ...input,
      text: input.query,
    })
    return { structured: result, text: renderSearch(result, context.clock.now()) }
  },
})

const eventCount = (side: string) =>
  z
    .number()
    .int()
    .min(0)
    .max(maxThreadItems)
    .optional()
    .describe(`show at most this many events of the turn ${side} the focus`)

const threadTool = defineTool({
  name: 'ctx_thread',
  title: 'Show a moment in context',
  description:
    'Expand one event (an id from ctx_search) into its conversation turn: the human instruction it belongs to, ' +
    'then what the agent did until the next instruction (its text, thinking, tool calls, and the first lines of ' +
    'each tool output; more of the one asked for, marked focus). Pass before/after to keep it short.',
  input: {
    eventId: z.string().min(1).describe('an event id from ctx_search'),
    before: eventCount('before'),
    after: eventCount('after'),
  },
  output: threadResultViewSchema.shape,
  readOnly: true,
  run(input, context) {
    const thread = new MemoryThread(context.project(onlyReads).db).thread(input.eventId, {
      before: input.before,
      after: input.after,
    })
    return { structured: thread, text: renderThread(thread, context.clock.now()) }
  },
})

const noteTool = defineTool({
  name: 'ctx_note',
  title: 'Note a decision',
  description:
    'Write down what the transcripts cannot show: a decision and why, a constraint, a warning for whoever works ' +
    'here next. Stored with your name and session, searchable at once by every agent and human on the project. ' +
    'A note holding a secret (a token, a password) is refused: leave the secret out. Keep it to a few lines.',
  input: { text: z.string().min(1).max(maxNoteChars).describe('the note') },
  output: noteViewSchema.shape,
  readOnly: false,
  run(input, context) {
    const note = new MemoryNote(context.project().db, context.clock).write({
      text: input.text,
      actor: context.actor(),
      cwd: context.projectDir,
      branch: currentBranch(context.projectDir),
      version: context.version,
    })
    return { structured: note, text: `noted ${note.id}` }
  },
})

/** The memory tools: `ctx_brief`, `ctx_search`, `ctx_thread`, `ctx_note`. */
export const memoryTools: readonly AnyMcpTool[] = [briefTool, searchTool, threadTool, noteTool]
