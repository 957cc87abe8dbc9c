import { z } from 'zod'

/**
 * What a lane command did on one machine (a sync that published, a lane created or deleted, a
 * check run, a lock taken over), as `sangam log` lists it: a team record (`integration.event`), so
 * every machine's log and dashboard show every machine's publishes. Lane names are per machine, so
 * an event names its machine.
 */

export const integrationEventPayloadSchema = z.object({
  /** The machine it happened on (config/machine-id.ts). */
  machine: z.string().min(1).max(100),
  /** The human who ran the command. */
  human: z.string().min(1),
  /** ms epoch, the machine's clock. */
  at: z.number().int(),
  /** `sync.published-direct`, `lane.created`, … */
  type: z.string().min(1).max(100),
  lane: z.string().min(1).max(200).nullable(),
  /**
   * What the event records (the main it published, the manifest of a delete, a check's command),
   * as a JSON object's text: one free-text field the secrets rule redacts as context.
   */
  detail: z.string().max(16_000),
})
export type IntegrationEventPayload = z.infer<typeof integrationEventPayloadSchema>
