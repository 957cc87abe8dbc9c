import { opencodeJournalDir } from '../../config/data-paths.ts'
import type { AgentVendor } from '../agent-vendor.ts'

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
  // The plugin sends no Stop (opencode has no resting answer to give).
  restingStopAnswer: '',
  neverFiredHint: (event) =>
    event === 'PreToolUse'
      ? ': it runs on the next edit in an opencode session of this project (the plugin in .opencode/plugins/)'
      : ': start an opencode session in this project',
  // The plugin (install/opencode-plugin.ts) hands the hook Claude Code's payload shape itself.
  hookDialect: null,
  projectRootBeside: null,
  // A tag does not reach an opencode session yet (docs/vendors/opencode.md).
  delivery: null,
}
