import { createInterface } from 'node:readline/promises'
import {
  type McpLaunch,
  type McpRegistration,
  registerMcpServer,
  sangamLaunch,
} from '../../../install/mcp-registration.ts'
import { openProject, type ProjectContext } from '../../../services/project-context.ts'
import { readAttachment } from '../../../services/sync/attachment.ts'
import { writeSyncSettings } from '../../../services/sync/settings.ts'
import { ErrorCode, SangamError } from '../../../shared/sangam-error.ts'
import { databasePath, projectDir } from '../../../store/database.ts'
import type { CommandContext, CommandRun, ParsedOptions } from '../../command.ts'
import type { initInput } from '../../registry.ts'

export const run: CommandRun<typeof initInput> = async (ctx, _args, options) => {
  const project = openProject(ctx.env, ctx.cwd, ctx.clock)
  try {
    const database = databasePath(ctx.env.sangamHome, project.repo.projectId)
    if (options.shareToolOutput !== undefined)
      writeSyncSettings(project.db, { shareToolOutput: options.shareToolOutput })
    const server = options.server === undefined ? null : await createOnServer(ctx, project, options.server)
    const mcp = await offerMcp(ctx, project.repo.root, options)
    const json = {
      projectId: project.repo.projectId,
      root: project.repo.root,
      remote: project.repo.remote,
      identitySource: project.repo.identitySource,
      worktrees: project.repo.worktrees,
      database,
      mcp,
      server: server?.json ?? null,
    }
    const text = [
      `sangam project ${json.projectId} (${json.identitySource === 'remote' ? json.remote : 'no remote; identified by its git dir'})`,
      `  database  ${json.database}`,
      `  worktrees ${json.worktrees.join(', ')}`,
      ...describeMcp(mcp),
      ...(server === null ? [] : server.lines.map((line) => `  server    ${line}`)),
    ].join('\n')
    return { json, text }
  } finally {
    project.close()
  }
}

/**
 * `--server`: registers the project on the server under a fresh key and attaches this checkout.
 * Run again with the same server it changes nothing; another server is refused, since the
 * project's history and leases live on the one it is attached to (`join` moves a checkout).
 */
async function createOnServer(ctx: CommandContext, project: ProjectContext, given: string) {
  // The sync client and its schemas (zod) are most of init's start-up: only --server loads them.
  const [{ parseServerUrl }, { attachToServer, newProjectKey }, { describeAttach }] = await Promise.all([
    import('../../../core/sync/connection-line.ts'),
    import('../../../services/sync/attach.ts'),
    import('./join.ts'),
  ])
  const url = parseServerUrl(given)
  const dir = projectDir(ctx.env.sangamHome, project.repo.projectId)
  const attached = readAttachment(dir)
  if (attached !== null && attached.url === url && attached.projectId === project.repo.projectId) {
    return {
      json: { status: 'already-attached', url, projectId: attached.projectId },
      lines: [`already attached to ${url}; sangam connection prints the line for teammates`],
    }
  }
  if (attached !== null) {
    throw new SangamError(
      ErrorCode.InvalidInput,
      `this checkout is attached to ${attached.url}; to move it to another server, sangam join a connection line from that server`,
    )
  }
  const result = await attachToServer({
    db: project.db,
    projectDir: dir,
    projectId: project.repo.projectId,
    connection: { url, projectId: project.repo.projectId, key: newProjectKey() },
    mode: 'create',
    clock: ctx.clock,
    log: ctx.log,
  })
  return { json: { status: 'created', ...result }, lines: describeAttach('created', result) }
}

/** What init did about the MCP server, for `--json`. */
interface McpOutcome {
  /** registered: done (or already so). declined: asked, and the answer was no. skipped: --no-mcp. not-asked: no terminal and no --yes. */
  readonly status: 'registered' | 'declined' | 'skipped' | 'not-asked'
  readonly launch: McpLaunch
  readonly hosts: readonly McpRegistration[]
}

/**
 * Registers the MCP server with Claude Code and Codex: at once with --yes, after asking on a
 * terminal, never with --no-mcp; without a terminal to ask, it says how instead of guessing.
 */
async function offerMcp(
  ctx: CommandContext,
  root: string,
  options: ParsedOptions<typeof initInput>,
): Promise<McpOutcome> {
  const launch = sangamLaunch(process.execPath, ctx.cliEntry)
  const register = (): McpOutcome => ({
    status: 'registered',
    launch,
    hosts: registerMcpServer({ projectRoot: root, codexHome: ctx.env.codexHome }, launch),
  })
  if (!options.mcp) return { status: 'skipped', launch, hosts: [] }
  if (options.yes) return register()
  if (ctx.stdin.isTTY !== true || ctx.stderr.isTTY !== true) return { status: 'not-asked', launch, hosts: [] }
  const answer = await ask(
    ctx,
    `Register the sangam MCP server (its memory and lease tools: sangam mcp --help lists them) with Claude Code (${root}/.mcp.json) and Codex (${ctx.env.codexHome}/config.toml)? [Y/n] `,
  )
  return /^(y|yes)?$/i.test(answer.trim()) ? register() : { status: 'declined', launch, hosts: [] }
}

async function ask(ctx: CommandContext, question: string): Promise<string> {
  const prompt = createInterface({ input: ctx.stdin, output: ctx.stderr, terminal: true })
  try {
    return await prompt.question(question)
  } finally {
    prompt.close()
  }
}

function describeMcp(mcp: McpOutcome): string[] {
  const how = 'sangam init --yes registers it with Claude Code and Codex'
  switch (mcp.status) {
    case 'skipped':
      return []
    case 'declined':
      return [`  mcp       not registered (${how})`]
    case 'not-asked':
      return [`  mcp       not registered: no terminal to ask on; ${how}, --no-mcp silences this`]
    case 'registered':
      return mcp.hosts.map((host) => {
        const name = host.host === 'claude' ? 'Claude Code' : 'Codex'
        const what =
          host.outcome === 'added'
            ? 'registered in'
            : host.outcome === 'registered'
              ? 'already registered in'
              : 'left as it was: another "sangam" entry is in'
        return `  mcp       ${name}: ${what} ${host.file}`
      })
  }
}
