import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { isRecord } from '../shared/is-record.ts'
import { stringField } from './hook-payload.ts'

/**
 * The version of the CLI that ran a hook, from what it leaves in the hook's environment; null
 * when it cannot be told without real work. Neither host puts its version in the hook payload.
 *
 * - Claude Code 2.1.x sets `AI_AGENT=claude-code_2-1-332_<mode>`.
 * - Codex installed from npm sets `CODEX_MANAGED_PACKAGE_ROOT` to its package, whose
 *   package.json carries the version.
 */
export function hostVersion(host: string, env: Readonly<Record<string, string | undefined>>): string | null {
  if (host === 'claude') {
    const match = /^claude-code_(\d+(?:-\d+)+)/.exec(env.AI_AGENT ?? '')
    return match?.[1]?.replaceAll('-', '.') ?? null
  }
  if (host === 'codex' && env.CODEX_MANAGED_PACKAGE_ROOT) {
    try {
      const manifest: unknown = JSON.parse(
        readFileSync(join(env.CODEX_MANAGED_PACKAGE_ROOT, 'package.json'), 'utf8'),
      )
      return isRecord(manifest) ? stringField(manifest, 'version') : null
    } catch {
      return null
    }
  }
  return null
}
