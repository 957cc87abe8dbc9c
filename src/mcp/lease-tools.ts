import { z } from 'zod'
import { parseTtl } from '../leases/core/expiry.ts'
import { releaseOutcomeViewSchema, whoHasViewSchema } from '../leases/protocol/lease-view.ts'
import { releasedPatterns } from '../leases/protocol/release-input.ts'
import { claimLease, describeClaimOutcome } from '../leases/services/claim-lease.ts'
import { resolvePatternArgument } from '../leases/services/path.ts'
import { describeReleaseOutcome, releaseLease } from '../leases/services/release-lease.ts'
import { describeWhoHas, whoHas } from '../leases/services/who-has.ts'
import { claimAnswerViewSchema } from '../project/protocol/claim-view.ts'
import { describeForecast, forecastClaim } from '../project/services/claim-forecast.ts'
import { projectLeaseArbiter } from '../project/services/lease-arbiter.ts'
import { onlyReads } from './mcp-context.ts'
import { type AnyMcpTool, defineTool } from './mcp-tool.ts'

/**
 * The lease tools act as the calling agent session (see `resolveActor`): a claim made here keeps
 * every other session out, the same human's other agent included. Patterns are
 * repository-relative. Forcing another holder's release is left to humans (`sangam release
 * --force`), so it is not offered here. Each tool calls the same use case as its CLI command and
 * answers with the same shape and words.
 */

const claimTool = defineTool({
  name: 'ctx_claim',
  title: 'Claim files',
  description:
    'Take an exclusive lease on files before you change them, so that no other agent session (Claude Code, Codex, ' +
    "Gemini CLI or opencode, yours or a teammate's) edits them meanwhile; their edits are refused while the lease lasts. Patterns are " +
    'repository-relative paths or globs (src/auth/**, src/a.ts, *.md); a directory means everything in it. All are ' +
    'granted or none. If someone holds an overlapping lease you are told who, why and until when: work on something ' +
    'else, do not edit those files. Claiming again renews your lease. Release it with ctx_release when done.',
  input: {
    patterns: z.array(z.string().min(1)).min(1).describe('repository-relative paths or globs'),
    reason: z.string().min(1).describe('what you are doing, shown to whoever is kept out'),
    ttl: z
      .string()
      .min(1)
      .optional()
      .describe(
        "how long the lease lasts, written as for sangam claim --ttl: 30m, 2h, 1h30m, 1d (10s to 7d; default: the project's claim TTL, 2h)",
      ),
    // Replaced by `ttl`. Refused rather than dropped: an ignored ttlMinutes would silently give the default TTL.
    ttlMinutes: z
      .never({ error: 'ttlMinutes was replaced by ttl, written like "30m" or "2h"' })
      .optional()
      .describe('replaced by ttl ("30m"); refused'),
  },
  output: claimAnswerViewSchema.shape,
  readOnly: false,
  async run(input, context) {
    const project = context.project()
    const outcome = await claimLease(project, projectLeaseArbiter, {
      actor: context.actor(),
      patterns: input.patterns,
      cwd: project.repo.root,
      reason: input.reason,
      ttlMs: input.ttl === undefined ? null : parseTtl(input.ttl),
    })
    const patterns = input.patterns.map((raw) =>
      resolvePatternArgument(raw, project.repo.root, project.repo.worktrees),
    )
    const forecasts = await forecastClaim(project, patterns, project.repo.root)
    const text = [describeClaimOutcome(outcome, context.clock.now()), describeForecast(forecasts)]
      .filter((part) => part !== '')
      .join('\n')
    return { structured: { ...outcome, forecast: forecasts.forecasts, states: forecasts.states }, text }
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
  output: releaseOutcomeViewSchema.shape,
  readOnly: false,
  async run(input, context) {
    const project = context.project()
    const outcome = await releaseLease(project, projectLeaseArbiter, {
      actor: context.actor(),
      patterns: releasedPatterns(input.patterns),
      cwd: project.repo.root,
      forceReason: null,
    })
    return { structured: outcome, text: describeReleaseOutcome(outcome) }
  },
})

const whoHasTool = defineTool({
  name: 'ctx_who_has',
  title: 'Who holds a file',
  description:
    'Who holds a lease on a file (repository-relative or absolute path), or on anything overlapping a glob: holder, ' +
    'reason and expiry. Ask before you start on files someone may be working on.',
  input: { path: z.string().min(1).describe('a file path, or a glob such as src/auth/**') },
  output: whoHasViewSchema.shape,
  readOnly: true,
  run(input, context) {
    const project = context.project(onlyReads)
    const outcome = whoHas(project, input.path, project.repo.root)
    return { structured: outcome, text: describeWhoHas(outcome, input.path, context.clock.now()) }
  },
})

export const leaseTools: readonly AnyMcpTool[] = [claimTool, releaseTool, whoHasTool]
