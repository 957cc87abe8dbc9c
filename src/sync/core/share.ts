import type { EventKind } from '../../memory/protocol/event.ts'

/** What one replica shares with its team server; kept in the project's `setting` table. */
export interface SyncSettings {
  /** Tool output leaves the machine only when the project opts in (`sangam init --share-tool-output`). */
  readonly shareToolOutput: boolean
}

/**
 * The kinds of event pushed to the team (DESIGN §4): what people and models said and did. Tool
 * output is most of the bytes and where secrets live, so it stays unless the project opts in.
 * `system` events (hook output, skill bodies, command expansions, compaction summaries) are text
 * the tools wrote, often file contents, and never leave: the conversation they came from does.
 */
export function sharedKinds(settings: SyncSettings): readonly EventKind[] {
  return settings.shareToolOutput ? [...conversationKinds, 'tool_output'] : conversationKinds
}

const conversationKinds: readonly EventKind[] = ['human', 'assistant', 'thinking', 'tool_call', 'note']
