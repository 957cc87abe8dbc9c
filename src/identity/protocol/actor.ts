import { z } from 'zod'
import { vendorNames } from '../../shared/vendor-names.ts'

/** The vendors whose sessions can act (hold leases, post, be present). */
export const agentVendorSchema = z.enum(vendorNames)
export type AgentVendor = z.infer<typeof agentVendorSchema>

/**
 * Who holds or asks. A human alone (`vendor` and `sessionId` null) acts from the CLI; an agent
 * session acts for its human. `vendor` without `sessionId` is a session of that vendor that could
 * not say which one it is (Codex does not tell its MCP servers).
 */
export const actorSchema = z.object({
  human: z.string().min(1),
  vendor: agentVendorSchema.nullable(),
  sessionId: z.string().min(1).nullable(),
})
export type Actor = z.infer<typeof actorSchema>
