import { projectDir } from '../../../config/data-paths.ts'
import { openRepository } from '../../../git/repository.ts'
import { describeActor } from '../../../identity/core/actor-names.ts'
import {
  moveCheckoutTo,
  type ProjectMove,
  resolveProjectIdentity,
} from '../../../identity/services/project-identity.ts'
import { openProject } from '../../../project/services/open-project.ts'
import { ErrorCode, SangamError } from '../../../shared/sangam-error.ts'
import { type ConnectionLine, parseConnectionLine } from '../../../sync/core/connection-line.ts'
import { type AttachResult, attachToServer, checkConnection } from '../../../sync/services/attach.ts'
import { writeSyncSettings } from '../../../sync/services/settings.ts'
import type { CommandContext, CommandRun } from '../../command.ts'
import { redrawLine } from '../../terminal-stream.ts'
import { readUnseenLine, type TerminalInput } from '../../unseen-line.ts'
import type { joinInput } from './inputs.ts'

export const run: CommandRun<typeof joinInput> = async (ctx, args, options) => {
  if (args.connection !== undefined) ctx.stderr.write(argvKeyWarning)
  const line = parseConnectionLine(args.connection ?? (await readLine(ctx)))
  const move = await moveToTeamProject(ctx, line)
  const project = openProject(ctx.env, ctx.cwd, ctx.clock)
  try {
    if (options.shareToolOutput) writeSyncSettings(project.db, { shareToolOutput: true })
    const progress = backfillProgress(ctx)
    const result = await attachToServer({
      db: project.db,
      projectDir: projectDir(ctx.env.sangamHome, project.repo.projectId),
      projectId: project.repo.projectId,
      connection: line,
      mode: 'join',
      clock: ctx.clock,
      log: ctx.log,
      onProgress: progress,
    })
    progress.done()
    const json = { status: 'joined', ...result, identity: move }
    return { json, text: [...describeMove(move), ...describeAttach('joined', result)].join('\n') }
  } finally {
    project.close()
  }
}

/**
 * The line's project id becomes this checkout's (D263): a clone derives its id from its remote,
 * which need not be what the project that created the line recorded (its id was fixed before it
 * had a remote, or its remote URL differs). The key is checked first, so a wrong line moves nothing.
 */
async function moveToTeamProject(ctx: CommandContext, line: ConnectionLine): Promise<ProjectMove | null> {
  const now = ctx.clock.now()
  const { repo } = resolveProjectIdentity(ctx.env.sangamHome, openRepository(ctx.cwd), { now, scan: true })
  if (repo.projectId === line.projectId) return null
  await checkConnection(line)
  return moveCheckoutTo(ctx.env.sangamHome, repo, line.projectId, now)
}

function describeMove(move: ProjectMove | null): string[] {
  if (move === null) return []
  const store = move.storeMoved
    ? ', its store moved along'
    : move.storeKept !== null
      ? `; its store under ${move.storeKept} stays as it was (sangam doctor lists it)`
      : ''
  return [`this checkout is now project ${move.to} (was ${move.from})${store}`]
}

/** Said when the line came as an argument: it is out by then, so this is advice for next time. */
const argvKeyWarning =
  'sangam: warning: the connection line holds the project key, and as an argument it shows in the ' +
  'process list (ps) and in your shell history; pipe it in instead: pbpaste | sangam join, or ' +
  'sangam join < file\n'

/**
 * The line from stdin, so that the key appears neither in the process list nor in shell history:
 * `pbpaste | sangam join`. Pasted at a terminal, it is read without echo: the key stays off the
 * screen and out of its scrollback (D296).
 */
async function readLine(ctx: CommandContext): Promise<string> {
  const typed = readUnseenLine(
    ctx.stdin as TerminalInput,
    ctx.stderr,
    'paste the connection line (from sangam connection; it is not shown): ',
  )
  let text = typed === null ? '' : await typed
  if (typed === null) {
    for await (const chunk of ctx.stdin) {
      text += chunk.toString()
      if (text.includes('\n')) break
    }
  }
  const first = text.split('\n')[0]?.trim() ?? ''
  if (first === '')
    throw new SangamError(
      ErrorCode.Usage,
      'join needs the connection line: sangam join <line>, or pipe it in',
    )
  return first
}

/** `fetching team records: 12000 of 50000` redrawn on a terminal; silent elsewhere. */
function backfillProgress(ctx: CommandContext) {
  const tty = ctx.stderr.isTTY === true
  let drawn = false
  const update = (progress: { cursor: number; headGseq: number }): void => {
    if (!tty) return
    redrawLine(ctx.stderr, `fetching team records: ${progress.cursor} of ${progress.headGseq}`)
    drawn = true
  }
  return Object.assign(update, {
    done(): void {
      if (drawn) ctx.stderr.write('\n')
    },
  })
}

/** What attaching did, in the lines `init --server` and `join` print. */
export function describeAttach(verb: 'created' | 'joined', result: AttachResult): string[] {
  const lines = [
    `${verb} project ${result.projectId} on ${result.url}: ${result.applied} record(s) fetched (${result.events} new event(s)), head ${result.headGseq}`,
  ]
  if (result.leasesMoved.length > 0)
    lines.push(`moved ${result.leasesMoved.length} lease(s) taken here to the team server`)
  for (const conflict of result.leasesRefused) {
    lines.push(
      `not moved: ${conflict.pattern} (the team server has ${describeActor(conflict.lease.holder)} holding ${conflict.lease.pattern}); it is released here`,
    )
  }
  lines.push(
    verb === 'created'
      ? 'sangam connection prints the line teammates paste into sangam join; sangam up shares and receives'
      : 'sangam up keeps this checkout in sync with the team',
  )
  return lines
}
