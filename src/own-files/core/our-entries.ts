import { isRecord } from '../../shared/is-record.ts'
import { removeOurGroups } from './hook-config.ts'
import { isOurAgentHandler } from './our-handler.ts'

/** The name of our MCP server in the hosts' configuration (tools show as `mcp__sangam__ctx_search`). */
export const mcpServerName = 'sangam'

/**
 * A host file sangam puts entries in: a hook file (Claude Code's settings, Codex's hooks),
 * `.mcp.json`, a settings file holding both (Gemini CLI's `.gemini/settings.json`), or opencode's
 * `opencode.json`, whose MCP servers are under `mcp`.
 */
export type EntriesKind = 'hooks' | 'mcp' | 'settings' | 'opencode-config'

/** opencode's config schema, which init names in an `opencode.json` it creates. */
export const opencodeSchema = 'https://opencode.ai/config.json'

function onlyOpencodeSchema(rest: Readonly<Record<string, unknown>>): boolean {
  const keys = Object.keys(rest)
  return keys.length === 1 && rest.$schema === opencodeSchema
}

/** Where a kind of file keeps its MCP servers. */
function serversKey(kind: 'mcp' | 'opencode-config'): string {
  return kind === 'mcp' ? 'mcpServers' : 'mcp'
}

/** A host file's JSON with sangam's entries taken out, and those entries. */
export interface SplitEntries {
  /** Everything but ours (a `hooks` or `mcpServers` left empty by that is gone too). */
  readonly rest: Record<string, unknown>
  /** Our hook handlers, or our `mcpServers` entry; empty when the file holds none. */
  readonly ours: readonly unknown[]
}

/** Splits `config` into ours and the rest; null when it is not that kind of file (a malformed `hooks`). */
export function splitEntries(
  kind: EntriesKind,
  config: Readonly<Record<string, unknown>>,
): SplitEntries | null {
  if (kind === 'settings') {
    const hooks = splitEntries('hooks', config)
    const mcp = hooks === null ? null : splitEntries('mcp', hooks.rest)
    return hooks === null || mcp === null ? null : { rest: mcp.rest, ours: [...hooks.ours, ...mcp.ours] }
  }
  if (kind === 'mcp' || kind === 'opencode-config') {
    const key = serversKey(kind)
    const servers = config[key]
    if (servers === undefined) return { rest: { ...config }, ours: [] }
    if (!isRecord(servers)) return null
    if (!Object.hasOwn(servers, mcpServerName)) return { rest: { ...config }, ours: [] }
    const { [mcpServerName]: ours, ...others } = servers
    const { [key]: _servers, ...rest } = config
    // The `$schema` line init writes into an opencode.json it creates is as much sangam's.
    if (kind === 'opencode-config' && Object.keys(others).length === 0 && onlyOpencodeSchema(rest))
      return { rest: {}, ours: [ours] }
    return { rest: Object.keys(others).length === 0 ? rest : { ...rest, [key]: others }, ours: [ours] }
  }
  try {
    const removed = removeOurGroups(config, isOurAgentHandler, 'hook file')
    const hooks = isRecord(config.hooks) ? Object.values(config.hooks) : []
    const ours = hooks.flatMap((groups) =>
      (Array.isArray(groups) ? groups : []).flatMap((group) =>
        isRecord(group) && Array.isArray(group.hooks)
          ? group.hooks.filter((handler) => isRecord(handler) && isOurAgentHandler(handler))
          : [],
      ),
    )
    return { rest: removed.config, ours }
  } catch {
    // `hooks` is not the hosts' shape: not a file sangam wrote.
    return null
  }
}

/**
 * Host file `target` with sangam's entries replaced by `source`'s (both JSON objects of the same
 * kind): the user's own entries in `target` are kept as they are, ours are appended after them as
 * the installers place them. Null when either cannot be read as that kind of file.
 */
export function withOurEntriesOf(
  kind: EntriesKind,
  target: Readonly<Record<string, unknown>>,
  source: Readonly<Record<string, unknown>>,
): Record<string, unknown> | null {
  if (kind === 'settings') {
    const hooks = withOurEntriesOf('hooks', target, source)
    return hooks === null ? null : withOurEntriesOf('mcp', hooks, source)
  }
  const kept = splitEntries(kind, target)
  if (kept === null || splitEntries(kind, source) === null) return null
  if (kind === 'mcp' || kind === 'opencode-config') {
    const key = serversKey(kind)
    const from = source[key]
    const entry = isRecord(from) ? from[mcpServerName] : undefined
    if (entry === undefined) return kept.rest
    const into = kept.rest[key]
    const servers = isRecord(into) ? into : {}
    return { ...kept.rest, [key]: { ...servers, [mcpServerName]: entry } }
  }
  const sourceHooks = isRecord(source.hooks) ? source.hooks : {}
  const hooks: Record<string, unknown> = isRecord(kept.rest.hooks) ? { ...kept.rest.hooks } : {}
  let added = false
  for (const [event, groups] of Object.entries(sourceHooks)) {
    const ours = (Array.isArray(groups) ? groups : []).flatMap((group) => ourPartOf(group))
    if (ours.length === 0) continue
    const existing = hooks[event]
    hooks[event] = [...(Array.isArray(existing) ? existing : []), ...ours]
    added = true
  }
  return added ? { ...kept.rest, hooks } : kept.rest
}

/**
 * Whether any entry of ours names an absolute path (this machine's node or sangam), which means
 * nothing on a teammate's machine; `sangam-mcp` by name and `${CLAUDE_PROJECT_DIR}/node_modules/…`
 * do not.
 */
export function namesMachinePath(ours: readonly unknown[]): boolean {
  return ours.some((entry) =>
    stringsOf(entry).some((value) =>
      value.split(/\s+/).some((word) => /^['"]?(?:\/|[A-Za-z]:[\\/])/.test(word)),
    ),
  )
}

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(stringsOf)
  if (isRecord(value)) return Object.values(value).flatMap(stringsOf)
  return []
}

/** A hook group reduced to our handlers (a group of ours holds nothing else), or nothing. */
function ourPartOf(group: unknown): unknown[] {
  if (!isRecord(group) || !Array.isArray(group.hooks)) return []
  const ours = group.hooks.filter((handler) => isRecord(handler) && isOurAgentHandler(handler))
  return ours.length === 0 ? [] : [{ ...group, hooks: ours }]
}
