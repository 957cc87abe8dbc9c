import type { z } from 'zod'
import { defineRecordType, recordDraftSchema } from '../../../records/protocol/record-type.ts'
import { worktreeStatePayloadSchema } from '../worktree.ts'

const name = 'room.worktree'

/** What a machine's daemon pushes when one of its worktrees' state changed. */
export const roomWorktreeRecordDraftSchema = recordDraftSchema(name, worktreeStatePayloadSchema)

/** A worktree's state; the replica keeps the newest per machine and path. */
export const roomWorktreeRecordType = defineRecordType({
  name,
  description: "a worktree's state (branch, base, changed paths and base line ranges), pushed by its machine",
  payload: worktreeStatePayloadSchema,
  draft: roomWorktreeRecordDraftSchema,
})

export const roomWorktreeRecordSchema = roomWorktreeRecordType.served
export type RoomWorktreeRecord = z.infer<typeof roomWorktreeRecordSchema>
