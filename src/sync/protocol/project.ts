import { z } from 'zod'

/** A project id as sangam derives it (`prj_` + 16 hex), or any other short URL-safe name. */
export const projectIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'a project id is 1–64 characters of A–Z, a–z, 0–9, _ and -')
export type ProjectId = z.infer<typeof projectIdSchema>

/**
 * The project key: a secret the creating client generates (32 random bytes, base64url: 43
 * characters) and shares with its team. It travels only in `Authorization: Bearer …`; the server
 * keeps its SHA-256. The length floor refuses keys too short to be random.
 */
export const projectKeySchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{32,256}$/, 'a project key is 32–256 base64url characters (use 32 random bytes)')

/** The answer to `POST /v1/projects/:projectId`. `created` is false when the same key registered it before. */
export const createProjectResponseSchema = z.object({
  projectId: projectIdSchema,
  created: z.boolean(),
  /** ISO-8601 UTC: when the project was first registered. */
  createdAt: z.string(),
})
export type CreateProjectResponse = z.infer<typeof createProjectResponseSchema>

/** The answer to `GET /v1/projects/:projectId`. */
export const projectInfoSchema = z.object({
  projectId: projectIdSchema,
  createdAt: z.string(),
  /** The gseq of the newest record; 0 when there is none. */
  headGseq: z.number().int().nonnegative(),
  /** The last fencing token issued; 0 before the first lease. */
  fencingToken: z.number().int().nonnegative(),
  /** WebSocket connections subscribed right now. */
  connections: z.number().int().nonnegative(),
  /**
   * The project's storage against its budget (`MAX_PROJECT_BYTES`); pushes that would pass the
   * limit are refused `QUOTA_EXCEEDED`. Absent from servers older than the budget.
   */
  storage: z
    .object({
      usedBytes: z.number().int().nonnegative(),
      limitBytes: z.number().int().positive(),
    })
    .optional(),
})
export type ProjectInfo = z.infer<typeof projectInfoSchema>
