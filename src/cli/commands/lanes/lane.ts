import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { laneSandboxWarning } from '../../../agents/codex/install/codex-sandbox.ts'
import {
  giveLaneOpencodePlugin,
  type OpencodePluginChange,
} from '../../../agents/opencode/install/opencode-plugin.ts'
import { runGit } from '../../../git/git.ts'
import { excludeFromGit } from '../../../install/git-exclude.ts'
import {
  type EquippedLane,
  entriesLaneLacks,
  equipLane,
  sharedOwnFiles,
} from '../../../install/lane-own-files.ts'
import { installMainGuard } from '../../../install/main-guard-installer.ts'
import { enterLane } from '../../../lanes/services/enter-lane.ts'
import { checkLaneAgent } from '../../../lanes/services/lane-agent.ts'
import { laneWorktreePath } from '../../../lanes/services/lane-world.ts'
import { mainHere } from '../../../lanes/services/main-in-step.ts'
import { lookAtMain, outsideText } from '../../../lanes/services/main-record.ts'
import { hookEntries } from '../../../own-files/services/hook-entries.ts'
import { systemRandom } from '../../../shared/random.ts'
import type { CommandRun } from '../../command.ts'
import type { laneInput } from './inputs.ts'
import { openLaneCommand } from './lane-world-for.ts'

export const run: CommandRun<typeof laneInput> = async (ctx, { name }, options) => {
  // Checked before anything is created: a refused agent leaves no lane behind.
  const agentCheck =
    options.agent?.kind === 'agent' ? checkLaneAgent(options.agent.command, ctx.env.path) : { warning: null }
  const { project, world } = openLaneCommand(ctx)
  try {
    excludeFromGit(
      project.repo.commonDir,
      '/.sangam/',
      'lanes, their task files and delete manifests (sangam lane)',
    )
    // sangam's untracked files of the main worktree (hooks, MCP registration) go with every lane (D212, D313).
    const ownFiles = sharedOwnFiles(world.root, world.commonDir)
    const writeInstructions =
      !ownFiles.some((shared) => shared.path.startsWith('.claude/')) &&
      !hooksInstalled(laneWorktreePath(world.root, name), ctx.env.claudeConfigDir)
    // The generated AGENTS.md must not make a lane dirty; a project that tracks its own keeps it.
    if (writeInstructions && !tracksAgentsFile(project.repo.root, world.mainBranch))
      excludeFromGit(project.repo.commonDir, '/AGENTS.md', "a lane's generated instructions (sangam lane)")
    let equipped: EquippedLane | null = null
    let plugin: OpencodePluginChange | null = null
    const entered = await enterLane(world, {
      name,
      agent: options.agent,
      writeInstructions,
      prepare: async (worktree) => {
        equipped = await equipLane(worktree, ownFiles, {
          codexHome: ctx.env.codexHome,
          codexBin: 'codex',
          timeoutMs: 30_000,
        })
        plugin = giveLaneOpencodePlugin(world.root, worktree)
      },
    })
    // Assigned in `prepare` (TypeScript cannot see a callback's assignment).
    const given = equipped as EquippedLane | null
    // A project with lanes has main moved by sync alone: the first lane arms the main guard (D220).
    const guard = installMainGuard({
      root: world.root,
      commonDir: world.commonDir,
      mainBranch: world.mainBranch,
      prePushEntry: hookEntries(ctx.cliEntry).prePush,
      random: systemRandom,
    })
    const lines = [
      `${entered.created ? 'Created' : 'Entered'} lane ${entered.lane.name} (${entered.lane.branch}, ${entered.lane.state}) at ${entered.lane.worktree}`,
      ...entered.notices.map((notice) => `notice: ${notice}`),
    ]
    if (entered.agent === null) lines.push("No agent: this lane is a human's; sangam sync prints its tasks.")
    else if (entered.agent.started)
      lines.push(`Agent ${entered.agent.command} runs in tmux pane ${entered.agent.pane}.`)
    else lines.push(`Start its agent: cd ${entered.lane.worktree} && ${entered.agent.command}`)
    const givenPlugin = plugin as OpencodePluginChange | null
    const copied = [
      ...(given?.files ?? []),
      ...(givenPlugin === null
        ? []
        : [{ path: givenPlugin.file.slice(entered.lane.worktree.length + 1), change: givenPlugin.change }]),
    ].filter((file) => file.change === 'added' || file.change === 'updated')
    if (copied.length > 0)
      lines.push(
        `sangam's ${copied.map((file) => file.path).join(', ')} brought into the lane from the main worktree.`,
      )
    if (entered.instructionsFile !== null)
      lines.push(`Lane rules written to ${entered.instructionsFile} (no sangam hooks to brief the agent).`)
    // sangam never widens the agent's sandbox (D211); it says when that sandbox cannot commit (D225).
    const sandboxWarning = laneSandboxWarning(
      entered.agent?.command ?? null,
      ctx.env.codexHome,
      entered.lane.worktree,
    )
    const trustWarning = given === null ? null : codexTrustWarning(given)
    const lacking = entriesLaneLacks(world.root, entered.lane.worktree).map(lacksWarning)
    // The first lane records main as it is; later ones say when main moved outside sangam (D300).
    const outside = lookAtMain(world, mainHere(world), { adopt: true })
    const warnings = [
      outside === null ? null : outsideText(outside),
      agentCheck.warning,
      sandboxWarning,
      trustWarning,
      ...lacking,
    ].flatMap((warning) => (warning === null ? [] : [warning]))
    if (!options.json) for (const warning of warnings) ctx.stderr.write(`warning: ${warning}\n`)
    return {
      json: {
        lane: entered.lane,
        created: entered.created,
        notices: entered.notices,
        agent: entered.agent,
        ownFiles: given?.files ?? [],
        guard,
        warnings,
      },
      text: lines.join('\n'),
    }
  } finally {
    project.close()
  }
}

/**
 * Whether sangam's agent hooks (which inject the lane's rules at SessionStart) will run in the
 * lane: Claude Code settings of the lane's worktree (tracked ones come with it) or the user's.
 */
function hooksInstalled(root: string, claudeConfigDir: string): boolean {
  return [
    join(root, '.claude', 'settings.json'),
    join(root, '.claude', 'settings.local.json'),
    join(claudeConfigDir, 'settings.json'),
  ].some((file) => existsSync(file) && /sangam/.test(readSafe(file)))
}

function readSafe(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return ''
  }
}

function tracksAgentsFile(root: string, mainBranch: string): boolean {
  return runGit(['cat-file', '-e', `${mainBranch}:AGENTS.md`], root).code === 0
}

/** Codex skips hooks nobody trusted: say so when it was asked and did not trust the lane's copy. */
function codexTrustWarning(equipped: EquippedLane): string | null {
  const trust = equipped.codexTrust
  if (trust === null || trust.status !== 'untrusted') return null
  return `Codex does not trust the lane's .codex/hooks.json (${trust.note ?? 'untrusted'}), so a Codex agent there runs unhooked: review the hooks with /hooks in Codex in the lane, or run sangam install-hooks there`
}

/**
 * A tracked file comes with the lane from git (D313): sangam's entries the main worktree added to
 * it without committing are not there, and the lane's agent goes without them.
 */
function lacksWarning(path: string): string {
  const how =
    path === '.mcp.json'
      ? 'commit a portable entry (sangam init with sangam on PATH writes `sangam-mcp`)'
      : 'install the hooks for your user instead (sangam install-hooks --uninstall, then --user)'
  return `the lane's ${path} comes from git without sangam's entries, which are uncommitted in the main worktree, so its agent lacks them: ${how}`
}
