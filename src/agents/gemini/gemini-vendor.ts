import { join } from 'node:path'
import { geminiJournalDir } from '../../config/data-paths.ts'
import type { AgentVendor, SpawnChannel, VendorCommand } from '../agent-vendor.ts'
import { claudeAnswerAsGemini, geminiEventOf, geminiPayloadAsClaude } from './core/gemini-hook-events.ts'
import { geminiProjectRoot } from './project-root.ts'

/** Gemini CLI (`gemini`, @google/gemini-cli; verified with 0.61.0 in the offline lab). */
export const geminiVendor: AgentVendor = {
  name: 'gemini',
  displayName: 'Gemini CLI',
  executable: 'gemini',
  // Chats sit under ~/.gemini/tmp/<project>/chats/, the project's root in .project_root beside them;
  // sessions from before 0.39 (whole JSON documents) in sangam's journal of them, laid out alike.
  transcriptRoots: (homes) => [
    { path: join(homes.geminiDir, 'tmp'), vendor: 'gemini', layout: 'gemini-chats' },
    { path: geminiJournalDir(homes.sangamHome), vendor: 'gemini', layout: 'gemini-chats' },
  ],
  // Gemini CLI puts no version in its hooks' payload or environment.
  hostVersion: () => null,
  // AfterAgent (the Stop of the agent hook) rests on an empty answer.
  restingStopAnswer: '',
  neverFiredHint: (event) =>
    event === 'PreToolUse'
      ? ': it runs on the next write_file or replace; Gemini CLI asks once whether to trust changed project hooks'
      : ': start a Gemini CLI session in this project',
  hookDialect: { eventOf: geminiEventOf, payloadIn: geminiPayloadAsClaude, answerOut: claudeAnswerAsGemini },
  // Gemini CLI's records name no directory; its project root is recorded beside its chats.
  projectRootBeside: geminiProjectRoot,
  // Gemini CLI has no queue, no background session and no list of its live sessions: a dormant
  // session is resumed headless; one open in a terminal gets the room at its next prompt.
  delivery: {
    command: geminiCommand,
    helpAbilities: () => ({ queue: false, background: false, listsAgents: false }),
    newSessionIdIn: null,
    listsLiveSessions: false,
    wakeInPlace: 'Gemini CLI has no way in: an open session gets tags at its next prompt',
  },
}

/**
 * Checked against Gemini CLI 0.61.0 (its `--help` and `packages/cli/src/gemini.tsx`): with stdin not
 * a terminal the CLI runs headless and reads its prompt from stdin, so no `--prompt` is needed
 * (`-p` would put the prompt in argv). No approval flag: the turn runs under the user's own
 * `general.defaultApprovalMode`, `tools.allowed` and policies (D405).
 * - resume: `gemini --resume <id>`, prompt on stdin
 * - new: `gemini --session-id <id>` (sangam picks the id), prompt on stdin
 * - queue, background: Gemini CLI has neither; a resume
 */
function geminiCommand(channel: SpawnChannel, sessionId: string, prompt: string): VendorCommand {
  if (channel === 'new') return { args: ['--session-id', sessionId], stdin: prompt }
  return { args: ['--resume', sessionId], stdin: prompt }
}
