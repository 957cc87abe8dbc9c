import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { isRecord } from '../../shared/is-record.ts'
import type { AgentVendor, SpawnChannel, VendorCommand } from '../agent-vendor.ts'
import { codexThreadIdIn } from './codex-thread-id.ts'

/** Codex (`codex`). */
export const codexVendor: AgentVendor = {
  name: 'codex',
  displayName: 'Codex',
  executable: 'codex',
  // `codex archive` moves rollouts from sessions/ to archived_sessions/.
  transcriptRoots: (homes) => [
    { path: join(homes.codexHome, 'sessions'), vendor: 'codex', layout: 'codex-sessions' },
    { path: join(homes.codexHome, 'archived_sessions'), vendor: 'codex', layout: 'codex-archive' },
  ],
  hostVersion: codexVersion,
  // Codex requires JSON on stdout from a Stop hook that exits 0.
  restingStopAnswer: '{}\n',
  neverFiredHint: (event) =>
    event === 'PreToolUse' ? ': it runs on the next apply_patch' : ': start a Codex session in this project',
  hookDialect: null,
  projectRootBeside: null,
  delivery: {
    command: codexCommand,
    helpAbilities: (help) => ({ queue: /^\s+queue\b/m.test(help), background: false, listsAgents: false }),
    newSessionIdIn: codexThreadIdIn,
    listsLiveSessions: false,
    wakeInPlace: 'open through sangam codex, a tag starts a turn in it',
  },
}

/**
 * Codex installed from npm sets `CODEX_MANAGED_PACKAGE_ROOT` in its hooks' environment to its
 * package, whose package.json carries the version.
 */
function codexVersion(env: Readonly<Record<string, string | undefined>>): string | null {
  if (!env.CODEX_MANAGED_PACKAGE_ROOT) return null
  try {
    const manifest: unknown = JSON.parse(
      readFileSync(join(env.CODEX_MANAGED_PACKAGE_ROOT, 'package.json'), 'utf8'),
    )
    return isRecord(manifest) && typeof manifest.version === 'string' && manifest.version !== ''
      ? manifest.version
      : null
  } catch {
    return null
  }
}

/**
 * Checked against `codex --help` (0.171.0). The prompt goes on stdin wherever `exec … -` reads it;
 * `queue --message` takes it only in argv, so delivery uses it only for prompts short enough.
 * - resume: `codex exec resume --all <id> -`, prompt on stdin (`--all`: no cwd filter)
 * - queue: `codex queue --thread <id> --message <prompt> --resume`
 * - new: `codex exec --json -`, prompt on stdin; the thread id is read from its first event
 * - background: Codex has none; a resume
 */
function codexCommand(channel: SpawnChannel, sessionId: string, prompt: string): VendorCommand {
  switch (channel) {
    case 'queue':
      return { args: ['queue', '--thread', sessionId, '--message', prompt, '--resume'], stdin: null }
    case 'new':
      return { args: ['exec', '--json', '-'], stdin: prompt }
    default:
      return { args: ['exec', 'resume', '--all', sessionId, '-'], stdin: prompt }
  }
}
