import { isRecord } from '../../shared/is-record.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'

/**
 * Claude Code's settings.json and Codex's hooks.json share one shape:
 * `{ "hooks": { "<Event>": [ { "matcher"?: "…", "hooks": [ handler, … ] } ] } }`.
 * These functions add and remove sangam's handlers in that shape and touch nothing else: the
 * user's own groups keep their order and content, and so do unknown keys anywhere in the file.
 */
export interface CommandHandler {
  readonly type: 'command'
  readonly command: string
  readonly args?: readonly string[] | undefined
  /** Seconds. Far above our own time budget; only a wedged host process would ever reach it. */
  readonly timeout: number
  /**
   * Claude Code: run in the background, and on exit 2 wake the model with the handler's stderr
   * (the wake waiter, D370).
   */
  readonly asyncRewake?: boolean | undefined
}

export interface HookGroup {
  readonly matcher?: string | undefined
  readonly hooks: readonly CommandHandler[]
}

/** Whether a handler found in a config file is one of ours (however old the install). */
export type IsOurs = (handler: Readonly<Record<string, unknown>>) => boolean

export interface ConfigChange {
  readonly config: Record<string, unknown>
  readonly changed: boolean
}

/**
 * Makes `config` hold exactly our `groups` (one per event) once. A group of ours that is already
 * exactly right is left where it is; otherwise our old handlers are removed and the new group is
 * appended after the user's, so the user's groups keep their indices (Codex keys trust by index).
 */
export function addOurGroups(
  config: Readonly<Record<string, unknown>>,
  groups: Readonly<Record<string, HookGroup>>,
  isOurs: IsOurs,
  file: string,
): ConfigChange {
  const hooks = hooksObject(config, file)
  const next: Record<string, unknown> = { ...hooks }
  let changed = false
  for (const [event, group] of Object.entries(groups)) {
    const existing = eventGroups(hooks, event, file)
    if (
      existing.filter((candidate) => hasOurs(candidate, isOurs)).length === 1 &&
      existing.some((g) => same(g, group))
    )
      continue
    next[event] = [...withoutOurs(existing, isOurs), plain(group)]
    changed = true
  }
  return { config: changed ? { ...config, hooks: next } : { ...config }, changed }
}

/** Removes every handler of ours; groups, events and `hooks` left empty by that go too. */
export function removeOurGroups(
  config: Readonly<Record<string, unknown>>,
  isOurs: IsOurs,
  file: string,
): ConfigChange {
  if (config.hooks === undefined) return { config: { ...config }, changed: false }
  const hooks = hooksObject(config, file)
  const next: Record<string, unknown> = {}
  let changed = false
  for (const event of Object.keys(hooks)) {
    const existing = eventGroups(hooks, event, file)
    const kept = withoutOurs(existing, isOurs)
    const touched = kept.length !== existing.length || kept.some((group, index) => group !== existing[index])
    if (!touched) {
      next[event] = hooks[event]
      continue
    }
    changed = true
    if (kept.length > 0) next[event] = kept
  }
  if (!changed) return { config: { ...config }, changed: false }
  const { hooks: _removed, ...rest } = config
  return { config: Object.keys(next).length === 0 ? rest : { ...rest, hooks: next }, changed: true }
}

/** Our handlers present in `config`, as `{ event, groupIndex, handlerIndex }` (Codex trust keys). */
export function ourHandlerPositions(
  config: Readonly<Record<string, unknown>>,
  isOurs: IsOurs,
  file: string,
): { event: string; groupIndex: number; handlerIndex: number }[] {
  if (config.hooks === undefined) return []
  const hooks = hooksObject(config, file)
  return Object.keys(hooks).flatMap((event) =>
    eventGroups(hooks, event, file).flatMap((group, groupIndex) =>
      handlersOf(group).flatMap((handler, handlerIndex) =>
        isRecord(handler) && isOurs(handler) ? [{ event, groupIndex, handlerIndex }] : [],
      ),
    ),
  )
}

function hooksObject(config: Readonly<Record<string, unknown>>, file: string): Record<string, unknown> {
  if (config.hooks === undefined) return {}
  if (!isRecord(config.hooks)) throw malformed(file, '"hooks" is not an object')
  return config.hooks
}

function eventGroups(hooks: Readonly<Record<string, unknown>>, event: string, file: string): unknown[] {
  const value = hooks[event]
  if (value === undefined) return []
  if (!Array.isArray(value)) throw malformed(file, `"hooks.${event}" is not a list`)
  return value
}

function handlersOf(group: unknown): unknown[] {
  return isRecord(group) && Array.isArray(group.hooks) ? group.hooks : []
}

function hasOurs(group: unknown, isOurs: IsOurs): boolean {
  return handlersOf(group).some((handler) => isRecord(handler) && isOurs(handler))
}

/** The groups with our handlers taken out; a group that held only ours disappears. */
function withoutOurs(groups: readonly unknown[], isOurs: IsOurs): unknown[] {
  return groups.flatMap((group) => {
    if (!hasOurs(group, isOurs) || !isRecord(group)) return [group]
    const kept = handlersOf(group).filter((handler) => !(isRecord(handler) && isOurs(handler)))
    return kept.length === 0 ? [] : [{ ...group, hooks: kept }]
  })
}

function plain(group: HookGroup): Record<string, unknown> {
  return JSON.parse(JSON.stringify(group)) as Record<string, unknown>
}

function same(found: unknown, wanted: HookGroup): boolean {
  return JSON.stringify(found) === JSON.stringify(plain(wanted))
}

function malformed(file: string, what: string): SangamError {
  return new SangamError(
    ErrorCode.InvalidInput,
    `${file}: ${what}; fix it by hand, sangam left it unchanged`,
    {
      file,
    },
  )
}
