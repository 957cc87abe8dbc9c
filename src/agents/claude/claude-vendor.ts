import { join } from 'node:path'
import type { AgentVendor, SpawnChannel, VendorCommand } from '../agent-vendor.ts'

/** Claude Code (`claude`). */
export const claudeVendor: AgentVendor = {
  name: 'claude',
  displayName: 'Claude Code',
  executable: 'claude',
  transcriptRoots: (homes) => [
    { path: join(homes.claudeConfigDir, 'projects'), vendor: 'claude', layout: 'claude-projects' },
  ],
  // Claude Code 2.1.x sets `AI_AGENT=claude-code_2-1-332_<mode>` in its hooks' environment.
  hostVersion(env) {
    const match = /^claude-code_(\d+(?:-\d+)+)/.exec(env.AI_AGENT ?? '')
    return match?.[1]?.replaceAll('-', '.') ?? null
  },
  restingStopAnswer: '',
  neverFiredHint: (event) =>
    event === 'PreToolUse'
      ? ': it runs on the next file edit; an interactive Claude Code runs no hooks until the workspace is trusted, and none if `node` is not on its PATH'
      : ': start a Claude Code session in this project',
  hookDialect: null,
  projectRootBeside: null,
  delivery: {
    command: claudeCommand,
    helpAbilities: (help) => ({
      queue: false,
      background: /^\s+--bg\b/m.test(help),
      listsAgents: /^\s+agents\b/m.test(help),
    }),
    newSessionIdIn: null,
    listsLiveSessions: true,
    wakeInPlace: 'its wake waiter listens, a tag starts a turn in the open session',
  },
}

/**
 * Checked against `claude --help` (2.1.332). The prompt goes on stdin wherever `--print` reads it;
 * `--bg` takes it only in argv, so delivery uses it only for prompts short enough.
 * - resume: `claude --print --resume <id>`, prompt on stdin
 * - background: `claude --bg --resume <id> <prompt>`
 * - new: `claude --print --session-id <id>` (sangam picks the id), prompt on stdin
 * - queue: Claude Code has none; a resume
 */
function claudeCommand(channel: SpawnChannel, sessionId: string, prompt: string): VendorCommand {
  switch (channel) {
    case 'background':
      return { args: ['--bg', '--resume', sessionId, prompt], stdin: null }
    case 'new':
      return { args: ['--print', '--session-id', sessionId], stdin: prompt }
    default:
      return { args: ['--print', '--resume', sessionId], stdin: prompt }
  }
}
