import { opencodeJournalDir } from '../../config/data-paths.ts'
import type { AgentVendor, SpawnChannel, VendorCommand } from '../agent-vendor.ts'
import { opencodeSessionIdIn } from './opencode-session-id.ts'

/** opencode (`opencode`, opencode-ai; verified with 1.18.33 in the offline lab). */
export const opencodeVendor: AgentVendor = {
  name: 'opencode',
  displayName: 'opencode',
  executable: 'opencode',
  // opencode keeps its sessions in a SQLite database; sangam reads its own journal of it
  // (services/opencode-journal.ts), one file per session under $SANGAM_HOME.
  transcriptRoots: (homes) => [
    { path: opencodeJournalDir(homes.sangamHome), vendor: 'opencode', layout: 'opencode-journal' },
  ],
  // The plugin runs the hook with opencode's own environment, which names no version.
  hostVersion: () => null,
  // The plugin reads no answer to its Stop (opencode has no resting answer to give).
  restingStopAnswer: '',
  neverFiredHint: (event) =>
    event === 'PreToolUse'
      ? ': it runs on the next edit in an opencode session of this project (the plugin in .opencode/plugins/)'
      : ': start an opencode session in this project',
  // The plugin (install/opencode-plugin.ts) hands the hook Claude Code's payload shape itself.
  hookDialect: null,
  projectRootBeside: null,
  delivery: {
    command: opencodeCommand,
    // `opencode run` has neither a queue nor a background session: every turn is a resume.
    helpAbilities: () => ({ queue: false, background: false, listsAgents: false }),
    newSessionIdIn: opencodeSessionIdIn,
    listsLiveSessions: false,
    wakeInPlace: 'not woken in place: an open session reads a tag at its next prompt',
  },
}

/**
 * Checked against `opencode run --help` (1.18.33). `opencode run` reads its message from stdin
 * when stdin is not a terminal, so the prompt never goes in argv. No `--auto` (D414): a delivered
 * turn may do what the user's opencode config allows, and `run` rejects what it would ask about.
 * - resume: `opencode run --session <id>`, prompt on stdin
 * - new: `opencode run --format json`, prompt on stdin; the session id is read from its first event
 * - queue, background: opencode has neither; a resume
 */
function opencodeCommand(channel: SpawnChannel, sessionId: string, prompt: string): VendorCommand {
  if (channel === 'new') return { args: ['run', '--format', 'json'], stdin: prompt }
  return { args: ['run', '--session', sessionId], stdin: prompt }
}
