import { listCodexHooks } from '../agents/codex/install/codex-app-server.ts'
import { isOurAgentHandler } from '../own-files/core/our-handler.ts'
import { installs } from './hook-files.ts'
import { agentEvents, type HookHealthInput } from './hook-health.ts'

/**
 * What Codex itself says of our hooks, by event: a hook it no longer trusts (edited since, or
 * never reviewed) is silently skipped. Codex is asked only when one of `files` installs our hook;
 * `reason` says why it could not be asked.
 */
export async function codexTrust(
  input: Pick<HookHealthInput, 'root' | 'codexBin' | 'timeoutMs'>,
  files: readonly string[],
): Promise<{ byEvent: Map<string, string>; reason: string | null }> {
  const byEvent = new Map<string, string>()
  if (!files.some((file) => agentEvents.some((event) => installs(file, event))))
    return { byEvent, reason: null }
  const listed = await listCodexHooks({
    codexBin: input.codexBin,
    cwds: [input.root],
    timeoutMs: input.timeoutMs,
  })
  if (!listed.ok) return { byEvent, reason: listed.reason }
  for (const hook of listed.hooks) {
    if (!isOurAgentHandler({ command: hook.command })) continue
    const event = hook.eventName.charAt(0).toUpperCase() + hook.eventName.slice(1)
    // The worst status wins when both levels install the same event.
    if (rank(hook.trustStatus) > rank(byEvent.get(event))) byEvent.set(event, hook.trustStatus)
  }
  return { byEvent, reason: null }
}

function rank(status: string | undefined): number {
  if (status === undefined) return -1
  return status === 'trusted' || status === 'managed' ? 0 : status === 'modified' ? 1 : 2
}
