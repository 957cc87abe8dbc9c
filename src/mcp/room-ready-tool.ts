import { basename } from 'node:path'
import { z } from 'zod'
import { readyText } from '../room/core/ready-text.ts'
import { projectDaemonRound } from '../room/services/daemon-round.ts'
import { ready } from '../room/services/ready.ts'
import { onlyReads } from './mcp-context.ts'
import { type AnyMcpTool, defineTool } from './mcp-tool.ts'

const collisionShape = z.object({
  branch: z.string().nullable(),
  worktree: z.string(),
  paths: z.array(z.string()),
})
const branchShape = z.object({
  branch: z.string().nullable(),
  worktree: z.string(),
  mergesCleanly: z.boolean().nullable(),
  conflicts: z.array(z.string()),
  collidesWith: z.array(collisionShape),
  uncommitted: z.number().nullable(),
  skipped: z.enum(['missing', 'no-commit', 'unrelated']).nullable(),
})

/** `room_ready`: the same use case as `sangam ready`, from the project directory's checkout. */
const readyTool = defineTool({
  name: 'room_ready',
  title: 'Merge readiness',
  description:
    'Would each worktree merge into the target (default main), and which worktrees would conflict with each ' +
    'other: real git merges of every lane, uncommitted work included, so two lanes editing the same lines are ' +
    'seen before either commits.',
  input: {
    into: z.string().min(1).max(255).optional().describe('the branch the lanes would land on (default main)'),
  },
  output: {
    into: z.string(),
    complete: z.boolean(),
    clean: z.number(),
    latent: z.number(),
    conflicted: z.number(),
    pairsProbed: z.number(),
    branches: z.array(branchShape),
    merged: z.number(),
    states: z.object({ source: z.enum(['git', 'daemon']), at: z.number().nullable(), ageMs: z.number() }),
  },
  // It writes only its memo of git's answers: nothing anyone else reads changes.
  readOnly: true,
  async run(input, context) {
    const project = context.project(onlyReads)
    const verdict = await ready(project.db, context.projectDir, input.into ?? null, {
      now: context.clock.now(),
      daemon: projectDaemonRound(project),
    })
    return { structured: verdict, text: readyText(verdict, (path) => basename(path)) }
  },
})

export const roomReadyTools: readonly AnyMcpTool[] = [readyTool]
