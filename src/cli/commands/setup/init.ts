import { createInterface } from 'node:readline/promises'
import { usesOpencode } from '../../../agents/opencode/install/opencode-plugin.ts'
import { vendorFor } from '../../../agents/vendors.ts'
import { databasePath, projectDir } from '../../../config/data-paths.ts'
import { findMainBranch } from '../../../git/branch.ts'
import { recordedProjectIdFile } from '../../../git/recorded-project-id.ts'
import { openRepository, type Repository } from '../../../git/repository.ts'
import type { ProjectContext } from '../../../identity/services/project-context.ts'
import {
  adoptStore,
  type CheckoutStore,
  describeCheckoutStore,
  otherStoresOfCheckout,
} from '../../../identity/services/project-identity.ts'
import { excludeFromGit } from '../../../install/git-exclude.ts'
import {
  giveOwnFiles,
  isMainWorktree,
  type LaneFileChange,
  laneWorktrees,
  sharedOwnFiles,
} from '../../../install/lane-own-files.ts'
import { installMainGuard, type MainGuardReport } from '../../../install/main-guard-installer.ts'
import {
  isSangamOnPath,
  type McpLaunches,
  type McpRegistration,
  portableLaunch,
  registerMcpServer,
  sangamLaunch,
} from '../../../install/mcp-registration.ts'
import { keepOwnFileOutOfGit } from '../../../install/own-file-git.ts'
import { readMainGuard } from '../../../lanes/services/main-guard-file.ts'
import { hookEntries } from '../../../own-files/services/hook-entries.ts'
import { openProject } from '../../../project/services/open-project.ts'
import { systemRandom } from '../../../shared/random.ts'
import { ErrorCode, SangamError } from '../../../shared/sangam-error.ts'
import { escapeControls } from '../../../shared/terminal-text.ts'
import { readAttachment } from '../../../sync/services/attachment.ts'
import { writeSyncSettings } from '../../../sync/services/settings.ts'
import type { CommandContext, CommandRun, ParsedOptions } from '../../command.ts'
import { readlineOutput } from '../../terminal-stream.ts'
import { wrapText } from '../../word-wrap.ts'
import { guardLines } from './guard-lines.ts'
import type { initInput } from './inputs.ts'

export const run: CommandRun<typeof initInput> = async (ctx, _args, options) => {
  const chosen =
    options.adopt === undefined
      ? null
      : adoptStore(ctx.env.sangamHome, openRepository(ctx.cwd), options.adopt, ctx.clock.now())
  const project = openProject(ctx.env, ctx.cwd, ctx.clock)
  try {
    const database = databasePath(ctx.env.sangamHome, project.repo.projectId)
    const adopted = chosen ?? project.adoption?.adopted ?? null
    const others = otherStoresOfCheckout(ctx.env.sangamHome, project.repo, ctx.clock.now())
    if (options.shareToolOutput !== undefined)
      writeSyncSettings(project.db, { shareToolOutput: options.shareToolOutput })
    const server = options.server === undefined ? null : await createOnServer(ctx, project, options.server)
    const mcp = await offerMcp(ctx, project, options)
    const guard = guardMain(ctx, project, options)
    const json = {
      projectId: project.repo.projectId,
      root: project.repo.root,
      remote: project.repo.remote,
      identitySource: project.repo.identitySource,
      identityFile: recordedProjectIdFile(project.repo.commonDir),
      worktrees: project.repo.worktrees,
      database,
      adopted: adopted === null ? null : storeJson(adopted),
      otherStores: others.map(storeJson),
      mcp,
      server: server?.json ?? null,
      guard,
    }
    const text = [
      `sangam project ${json.projectId} (${identityText(project.repo)})`,
      `  identity  recorded in ${json.identityFile}: adding, changing or removing a remote leaves it as it is`,
      `  database  ${json.database}`,
      ...(adopted === null
        ? []
        : [
            `  adopted   ${describeCheckoutStore(adopted)}: ${chosen === null ? 'the store this checkout used before its id was recorded' : 'as --adopt asked'}`,
          ]),
      ...others.map(
        (store) =>
          `  other     ${describeCheckoutStore(store)}: not in use; sangam init --adopt ${store.projectId} makes it this checkout's project`,
      ),
      `  worktrees ${json.worktrees.join(', ')}`,
      ...describeMcp(mcp),
      ...(server === null ? [] : server.lines.map((line) => `  server    ${line}`)),
      ...(guard === null ? [] : guardLines(guard).map((line) => `  ${line}`)),
    ].join('\n')
    return { json, text }
  } finally {
    project.close()
  }
}

/** How the project's id came about, after its id in init's first line. */
function identityText(repo: Repository): string {
  switch (repo.identitySource) {
    case 'remote':
      return repo.remote ?? ''
    case 'common-dir':
      return repo.remote === null
        ? 'no remote; identified by its git dir'
        : `identified by its git dir, recorded before the remote ${repo.remote} was added`
    case 'recorded':
      return repo.remote === null
        ? 'recorded; this checkout has no remote now'
        : `recorded; its remote is ${repo.remote} now`
  }
}

/** A store of this checkout in `--json`: `createdAt` as an ISO date, counts as `contents`. */
function storeJson(store: CheckoutStore) {
  return {
    projectId: store.projectId,
    database: store.database,
    createdAt: store.createdAt === null ? null : new Date(store.createdAt).toISOString(),
    contents: store.contents,
    problem: store.problem,
  }
}

/**
 * `--guard` arms the main guard; a repository already armed gets its hooks refreshed (init run
 * again after an upgrade). Without either, init leaves git's hooks alone: a project that uses
 * sangam for memory and leases only keeps committing to main as before (D220).
 */
function guardMain(
  ctx: CommandContext,
  project: ProjectContext,
  options: ParsedOptions<typeof initInput>,
): MainGuardReport | null {
  const armed = readMainGuard(project.repo.commonDir)
  if (!options.guard && armed === null) {
    if (options.main !== undefined)
      throw new SangamError(ErrorCode.Usage, '--main names the branch --guard protects: add --guard')
    return null
  }
  return installMainGuard({
    root: project.repo.root,
    commonDir: project.repo.commonDir,
    mainBranch: options.main ?? armed?.mainBranch ?? guardedMain(project.repo.root),
    prePushEntry: hookEntries(ctx.cliEntry).prePush,
    random: systemRandom,
  })
}

/**
 * The branch to protect when none is named: the one lanes publish to (`findMainBranch`), so the
 * guard and `sync` never disagree about which branch is main (D247).
 */
function guardedMain(root: string): string {
  const main = findMainBranch(root)
  if (main === null)
    throw new SangamError(
      ErrorCode.InvalidInput,
      'this repository has no main branch (what origin/HEAD names, else main, master or trunk): name the branch to protect with --main <branch>',
    )
  if (!main.local) {
    const branch = main.name.slice('origin/'.length)
    throw new SangamError(
      ErrorCode.InvalidInput,
      `origin/HEAD names ${branch}, which this clone has no local branch of: create it with \`git branch ${branch} ${main.name}\`, or name the branch to protect with --main <branch>`,
    )
  }
  return main.name
}

/**
 * `--server`: registers the project on the server under a fresh key and attaches this checkout.
 * Run again with the same server it changes nothing; another server is refused, since the
 * project's history and leases live on the one it is attached to (`join` moves a checkout).
 */
async function createOnServer(ctx: CommandContext, project: ProjectContext, given: string) {
  // The sync client and its schemas (zod) are most of init's start-up: only --server loads them.
  const [{ parseServerUrl }, { attachToServer, newProjectKey }, { describeAttach }] = await Promise.all([
    import('../../../sync/core/connection-line.ts'),
    import('../../../sync/services/attach.ts'),
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
  /** What each host runs: Claude Code's `.mcp.json` (a project file) names `sangam` when it is on PATH. */
  readonly launches: McpLaunches
  /** `.mcp.json` says `sangam-mcp`, which works on every teammate's machine with sangam installed. */
  readonly portable: boolean
  /** The `info/exclude` that keeps an untracked `.mcp.json` naming this machine's path out of git. */
  readonly excludedIn: string | null
  readonly hosts: readonly McpRegistration[]
  /** The lanes of this main worktree, given the registration too (D313). */
  readonly lanes: readonly { readonly worktree: string; readonly files: readonly LaneFileChange[] }[]
}

/**
 * Registers the MCP server with Claude Code, Codex, Gemini CLI and opencode (where used): at once with --yes, after asking on a
 * terminal, never with --no-mcp; without a terminal to ask, it says how instead of guessing.
 *
 * `.mcp.json` is a project file teams commit, so it names `sangam-mcp` when `sangam-mcp` on PATH is
 * this package's MCP server; otherwise (a checkout's build) it names this machine's paths, and a `.mcp.json` init
 * creates so is kept out of git in `info/exclude` (D82). Codex's config is this machine's alone:
 * it gets the absolute launch, which also works for a Codex started without a shell's PATH.
 */
async function offerMcp(
  ctx: CommandContext,
  project: ProjectContext,
  options: ParsedOptions<typeof initInput>,
): Promise<McpOutcome> {
  const root = project.repo.root
  const absolute = sangamLaunch(process.execPath, ctx.cliEntry)
  const portable = isSangamOnPath(ctx.env.path, ctx.cliEntry)
  const launches = {
    claude: portable ? portableLaunch : absolute,
    codex: absolute,
    gemini: portable ? portableLaunch : absolute,
    opencode: portable ? portableLaunch : absolute,
  }
  const none = (status: McpOutcome['status']): McpOutcome => ({
    status,
    launches,
    portable,
    excludedIn: null,
    hosts: [],
    lanes: [],
  })
  const register = (): McpOutcome => {
    const hosts = registerMcpServer(
      { projectRoot: root, codexHome: ctx.env.codexHome, opencode: usesOpencode(root) },
      launches,
    )
    const inGit = keepOwnFileOutOfGit({
      root,
      commonDir: project.repo.commonDir,
      path: '.mcp.json',
      kind: 'mcp',
      why: "names this machine's path to sangam (sangam init)",
    })
    keepOwnFileOutOfGit({
      root,
      commonDir: project.repo.commonDir,
      path: '.gemini/settings.json',
      kind: 'settings',
      why: "names this machine's path to sangam (sangam init)",
    })
    // opencode's project config likewise, when init created it naming this machine's path.
    if (!portable && hosts.some((host) => host.host === 'opencode' && host.created))
      excludeFromGit(
        project.repo.commonDir,
        '/opencode.json',
        "names this machine's path to sangam (sangam init)",
      )
    // A lane's worktree starts without an untracked .mcp.json (or Gemini's, opencode's config): its
    // agent would have no sangam tools.
    const shared = isMainWorktree(root)
      ? sharedOwnFiles(root, project.repo.commonDir).filter(
          (file) =>
            file.path === '.mcp.json' ||
            file.path === '.gemini/settings.json' ||
            file.path === 'opencode.json',
        )
      : []
    const lanes = laneWorktrees(root).flatMap((worktree) =>
      shared.length === 0 ? [] : [{ worktree, files: giveOwnFiles(worktree, shared) }],
    )
    return { status: 'registered', launches, portable, excludedIn: inGit?.excludedIn ?? null, hosts, lanes }
  }
  if (!options.mcp) return none('skipped')
  if (options.yes) return register()
  if (ctx.stdin.isTTY !== true || ctx.stderr.isTTY !== true) return none('not-asked')
  const answer = await ask(
    ctx,
    `Register the sangam MCP server (its memory and lease tools: sangam mcp --help lists them) with Claude Code (${root}/.mcp.json), Codex (${ctx.env.codexHome}/config.toml), Gemini CLI (${root}/.gemini/settings.json) and opencode (${root}/opencode.json)? [Y/n] `,
  )
  return /^(y|yes)?$/i.test(answer.trim()) ? register() : none('declined')
}

async function ask(ctx: CommandContext, question: string): Promise<string> {
  const terminal = readlineOutput(ctx.stderr)
  const prompt = createInterface({ input: ctx.stdin, output: terminal, terminal: true })
  try {
    // readline draws the question itself, past the stream that wraps everything else (D297).
    const columns = (terminal as { columns?: number | undefined }).columns
    const width = columns !== undefined && columns > 0 ? columns : 80
    return await prompt.question(wrapText(escapeControls(question), width))
  } finally {
    prompt.close()
  }
}

function describeMcp(mcp: McpOutcome): string[] {
  const how = 'sangam init --yes registers it with Claude Code, Codex and opencode'
  switch (mcp.status) {
    case 'skipped':
      return []
    case 'declined':
      return [`  mcp       not registered (${how})`]
    case 'not-asked':
      return [`  mcp       not registered: no terminal to ask on; ${how}, --no-mcp silences this`]
    case 'registered':
      return mcp.hosts.map((host) => {
        const name = vendorFor(host.host).displayName
        const what =
          host.outcome === 'added'
            ? 'registered in'
            : host.outcome === 'registered'
              ? 'already registered in'
              : 'left as it was: another "sangam" entry is in'
        return `  mcp       ${name}: ${what} ${host.file}${host.host === 'claude' && host.outcome !== 'kept' ? ` ${portability(mcp)}` : ''}`
      })
  }
}

/** What the `.mcp.json` entry means for teammates who pull it. */
function portability(mcp: McpOutcome): string {
  if (mcp.portable) return "as `sangam-mcp` (the same on every teammate's machine with sangam installed)"
  const why = "by this machine's path, since sangam is not on PATH"
  if (mcp.excludedIn !== null) return `${why}; kept out of git in ${mcp.excludedIn}`
  return `${why}: do not commit it (with sangam on PATH, init writes \`sangam mcp\`)`
}
