/**
 * The kinds of record a transcript holds, as the readers of every vendor produce them and memory
 * stores them, with sangam's own notes: the one list the event schema is built from
 * (memory/protocol/event.ts). Here, below both, so the readers (agents/) need not reach up into
 * memory for the kind of what they read; zod- and Node-free like the vendors' names.
 */
export const eventKinds = [
  'human',
  'assistant',
  'thinking',
  'tool_call',
  'tool_output',
  'system',
  'note',
] as const
export type EventKind = (typeof eventKinds)[number]
