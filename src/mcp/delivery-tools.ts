import { dirname } from 'node:path'
import { z } from 'zod'
import { codexWake } from '../agents/codex/services/codex-wake.ts'
import { startVendors } from '../delivery/protocol/delivery-vendor.ts'
import { sendResultViewSchema, turnViewSchema } from '../delivery/protocol/session-view.ts'
import { openDeliveryRouter } from '../delivery/services/open-router.ts'
import { describeSend } from '../delivery/services/send-summary.ts'
import { sendToSession } from '../delivery/services/send-to-session.ts'
import { startSession, stopSession } from '../delivery/services/session-turns.ts'
import { openRoom } from '../room/services/open-room.ts'
import { systemRandom } from '../shared/random.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import type { McpContext } from './mcp-context.ts'
import { type AnyMcpTool, defineTool } from './mcp-tool.ts'

/**
 * Delivery's tools: the same use cases as `send`, `start` and `stop`, acting as the calling agent
 * session (an agent's send counts against the loop budget; its own session is never sent to).
 */

function router(context: McpContext) {
  const project = context.project()
  return openDeliveryRouter(project, {
    pid: process.pid,
    log: context.log,
    random: systemRandom,
    nodeBinDir: dirname(process.execPath),
    earlyExitMs: 1000,
    // As the daemon and `send`: a Codex session under `sangam codex` takes the turn in place.
    wake: codexWake({ db: project.db, clientVersion: context.version }),
  })
}

const sendTool = defineTool({
  name: 'room_send',
  title: 'Continue a session now',
  description:
    'Continue another Claude Code, Codex, Gemini CLI or opencode session of this project now with a message (posted to the room for it): ' +
    'a turn starts in it when it is at rest on this machine, with the guards a tag has (one turn at a time, a ' +
    'cooldown, a loop budget between agents). A session open in a terminal is refused (it reads the room at its ' +
    'next prompt). A session on another machine is tagged, and the daemon there delivers it (outcome forwarded). ' +
    'Name it by id, 8+ characters of it, or @handle.',
  input: {
    session: z.string().min(1).describe('the session: id, 8+ characters of it, or @handle'),
    text: z.string().min(1).describe('what to tell it'),
  },
  output: sendResultViewSchema.shape,
  readOnly: false,
  async run(input, context) {
    const project = context.project()
    const scope = openRoom(project, context.actor(), context.projectDir, systemRandom, 'agent')
    const sent = await sendToSession(project, scope, router(context), input)
    // As `send` exits 13: the CLI is missing or failed, which the agent cannot fix by waiting.
    if (sent.outcome === 'failed')
      throw new SangamError(
        ErrorCode.VendorCliUnavailable,
        `${sent.reason ?? 'the vendor CLI failed'}; message ${sent.messageId} is in the room and the ledger records it failed (sangam deliveries)`,
      )
    return { structured: sent, text: describeSend(sent) }
  },
})

const startTool = defineTool({
  name: 'room_session_start',
  title: 'Start a headless session',
  description:
    'Start a new headless Claude Code, Codex, Gemini CLI or opencode session in a worktree of this project, the text its first prompt.',
  input: {
    vendor: z.enum(startVendors),
    worktree: z
      .string()
      .min(1)
      .optional()
      .describe('a worktree path of this project (default: the project root)'),
    text: z.string().min(1).describe('its first prompt'),
  },
  output: { turn: turnViewSchema },
  readOnly: false,
  async run(input, context) {
    const project = context.project()
    const scope = openRoom(project, context.actor(), context.projectDir, systemRandom, 'agent')
    const started = await startSession(project, router(context), {
      vendor: input.vendor,
      worktree: input.worktree ?? null,
      cwd: context.projectDir,
      text: input.text,
      sender: scope.poster.sender,
      random: systemRandom,
    })
    return { structured: started, text: `started ${started.turn.vendor} session ${started.turn.sessionId}` }
  },
})

const stopTool = defineTool({
  name: 'room_session_stop',
  title: 'Stop a turn sangam started',
  description: 'End the turn sangam started in a session (its process, checked to still be that process).',
  input: { session: z.string().min(1).describe('the session: id, 8+ characters of it, or @handle') },
  output: { turn: turnViewSchema },
  readOnly: false,
  run(input, context) {
    const stopped = stopSession(context.project(), router(context), input.session)
    return { structured: stopped, text: `stopped turn ${stopped.turn.id}` }
  },
})

/** Delivery's tools: `room_send`, `room_session_start`, `room_session_stop`. */
export const deliveryTools: readonly AnyMcpTool[] = [sendTool, startTool, stopTool]
