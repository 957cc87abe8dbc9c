import type { ClaudeStep } from './fake-anthropic.ts'

/**
 * A Claude Code tool call that holds its turn open until the scenario creates `posted` (a minute
 * at most): the scenario posts a tag while the turn is surely running, then creates the file, so
 * the tag is one that arrived during a turn and not one that raced its end.
 */
export function waitForTagStep(posted: string): ClaudeStep {
  return {
    tool: 'Bash',
    input: {
      command: `for i in $(seq 600); do [ -f '${posted}' ] && break; sleep 0.1; done; echo tag-seen`,
      description: 'Wait for the tag',
    },
  }
}
