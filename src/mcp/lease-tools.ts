import { z } from 'zod'
import { projectDir } from '../config/data-paths.ts'
import { describeActor } from '../core/leases/actor.ts'
import { describeConflicts, describeLease } from '../core/leases/describe.ts'
import { maxTtlMs } from '../core/leases/expiry.ts'
import { isLiteralPattern } from '../core/leases/pattern.ts'
import { actorSchema, leaseConflictSchema, leaseSchema } from '../protocol/lease.ts'
import { repositoryPaths, resolvePatternArgument } from '../services/leases/path.ts'
import { leasesCovering } from '../services/leases/queries.ts'
import { chooseLeaseArbiter } from '../services/sync/arbiter-choice.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import type { McpContext } from './mcp-context.ts'
import { type AnyMcpTool, defineTool } from './mcp-tool.ts'

/**
 * The lease tools act as the calling agent session (see `resolveActor`): a claim made here keeps
 * every other session out, the same human's other agent included. Patterns are
 * repository-relative. Forcing another holder's release is left to humans (`sangam release
 * --force`), so it is not offered here.
 */

const claimTool = defineTool({
  name: 'ctx_claim',
  title: 'Claim files',
  description:
    'Take an exclusive lease on files before you change them, so that no other agent session (Claude Code or Codex, ' +
    "yours or a teammate's) edits them meanwhile; their edits are refused while the lease lasts. Patterns are " +
    'repository-relative paths or globs (src/auth/**, src/a.ts, *.md); a directory means everything in it. All are ' +
    'granted or none. If someone holds an overlapping lease you are told who, why and until when: work on something ' +
    'else, do not edit those files. Claiming again renews your lease. Release it with ctx_release when done.',
  input: {
    patterns: z.array(z.string().min(1)).min(1).describe('repository-relative paths or globs'),
    reason: z.string().min(1).describe('what you are doing, shown to whoever is kept out'),
    ttlMinutes: z
      .number()
      .int()
      .min(1)
      .max(maxTtlMs / 60_000)
      .optional()
      .describe('how long the lease lasts (default 120)'),
  },
  output: {
    granted: z.boolean(),
    leases: z.array(leaseSchema.extend({ renewed: z.boolean() })),
    conflicts: z.array(leaseConflictSchema),
    actor: actorSchema,
  },
  readOnly: false,
  async run(input, context) {
    const project = context.project()
    const patterns = input.patterns.map((raw) =>
      resolvePatternArgument(raw, project.repo.root, project.repo.worktrees),
    )
    const actor = context.actor()
    const result = await arbiterFor(context).claim({
      actor,
      patterns,
      reason: input.reason,
      ttlMs: input.ttlMinutes === undefined ? null : input.ttlMinutes * 60_000,
    })
    const now = context.clock.now()
    if (!result.granted) {
      return {
        structured: { granted: false, leases: [], conflicts: result.conflicts, actor },
        text: `Not granted; do not edit these files:\n${describeConflicts(result.conflicts, now)}`,
      }
    }
    const lines = result.leases.map(
      (lease) => `${lease.renewed ? 'Renewed' : 'Granted'}: ${describeLease(lease, now)}`,
    )
    for (const lease of result.overrode) {
      lines.push(`Note: ${describeActor(lease.holder)} was editing ${lease.pattern}; tell your human.`)
    }
    return {
      structured: { granted: true, leases: result.leases, conflicts: [], actor },
      text: lines.join('\n'),
    }
  },
})

const releaseTool = defineTool({
  name: 'ctx_release',
  title: 'Release files',
  description:
    'Release leases you hold, when you are done with the files: all of yours, or those named exactly as claimed ' +
    '(repository-relative). You cannot release leases others hold.',
  input: {
    patterns: z
      .array(z.string().min(1))
      .optional()
      .describe('the patterns to release (default: all of yours)'),
  },
  output: { released: z.array(leaseSchema) },
  readOnly: false,
  async run(input, context) {
    const project = context.project()
    const patterns =
      input.patterns === undefined || input.patterns.length === 0
        ? null
        : input.patterns.map((raw) => resolvePatternArgument(raw, project.repo.root, project.repo.worktrees))
    const outcome = await arbiterFor(context).release({ actor: context.actor(), patterns, forceReason: null })
    const now = context.clock.now()
    if (!outcome.ok && outcome.problem === 'not-found') {
      throw new SangamError(ErrorCode.NotFound, `no live lease on ${outcome.pattern}`)
    }
    if (!outcome.ok) {
      throw new SangamError(
        ErrorCode.LeaseConflict,
        `${outcome.pattern} is not yours to release: ${describeLease(outcome.lease, now)}`,
      )
    }
    const text = outcome.released.map((lease) => `Released: ${describeLease(lease, now)}`).join('\n')
    return { structured: { released: outcome.released }, text: text === '' ? 'You hold no leases.' : text }
  },
})

const whoHasTool = defineTool({
  name: 'ctx_who_has',
  title: 'Who holds a file',
  description:
    'Who holds a lease on a file (repository-relative or absolute path), or on anything overlapping a glob: holder, ' +
    'reason and expiry. Ask before you start on files someone may be working on.',
  input: { path: z.string().min(1).describe('a file path, or a glob such as src/auth/**') },
  output: { path: z.string().nullable(), pattern: z.string().nullable(), leases: z.array(leaseSchema) },
  readOnly: true,
  run(input, context) {
    const project = context.project()
    const { root, worktrees } = project.repo
    const now = context.clock.now()
    if (!isLiteralPattern(input.path)) {
      const pattern = resolvePatternArgument(input.path, root, worktrees)
      const leases = leasesCovering(project.db, { pattern }, now)
      return { structured: { path: null, pattern, leases }, text: listing(pattern, leases, now) }
    }
    const paths = repositoryPaths(input.path, root, worktrees)
    const path = paths[0] ?? null
    if (path === null) {
      return {
        structured: { path, pattern: null, leases: [] },
        text: `${input.path} is outside this project.`,
      }
    }
    const leases = leasesCovering(project.db, { paths }, now)
    return { structured: { path, pattern: null, leases }, text: listing(path, leases, now) }
  },
})

function arbiterFor(context: McpContext) {
  const project = context.project()
  return chooseLeaseArbiter(
    project.db,
    projectDir(context.env.sangamHome, project.repo.projectId),
    context.clock,
  )
}

function listing(target: string, leases: readonly z.infer<typeof leaseSchema>[], now: number): string {
  if (leases.length === 0) return `Nobody holds ${target}.`
  return leases.map((lease) => describeLease(lease, now)).join('\n')
}

export const leaseTools: readonly AnyMcpTool[] = [claimTool, releaseTool, whoHasTool]
