import { join } from 'node:path'
import type { AgentVendor } from '../agent-vendor.ts'
import { claudeAnswerAsGemini, geminiEventOf, geminiPayloadAsClaude } from './core/gemini-hook-events.ts'
import { geminiProjectRoot } from './project-root.ts'

/** Gemini CLI (`gemini`, @google/gemini-cli; verified with 0.61.0 in the offline lab). */
export const geminiVendor: AgentVendor = {
  name: 'gemini',
  displayName: 'Gemini CLI',
  executable: 'gemini',
  // Chats sit under ~/.gemini/tmp/<project>/chats/, the project's root in .project_root beside them.
  transcriptRoots: (homes) => [
    { path: join(homes.geminiDir, 'tmp'), vendor: 'gemini', layout: 'gemini-chats' },
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
  // A tag does not reach a Gemini CLI session yet: its headless resume takes the prompt in argv
  // (`--prompt`), which delivery never does (docs/vendors/gemini.md).
  delivery: null,
}
