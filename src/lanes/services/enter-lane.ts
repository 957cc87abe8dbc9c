import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gitOutputOrNull, runGit } from '../../git/git.ts'
import { instructionsMarker } from '../../own-files/core/own-file.ts'
import { refuseSecret } from '../../secrets/core/free-text-rule.ts'
import { laneBranch } from '../core/lane-name.ts'
import { insertLane, type LaneRow, readLane, readLaneTask, updateLane } from '../store/lane-table.ts'
import { headOf, isAncestor, isDirty, must, refCommit, worktreeOfBranch } from './lane-git.ts'
import { laneNameInput } from './lane-name-input.ts'
import { laneRefused } from './lane-refused.ts'
import { type LaneWorld, laneWorktreePath } from './lane-world.ts'

/** Who works in a lane: an agent (claude, codex, gemini, or a command line), or a human (`--no-agent`). */
export type LaneAgent = { readonly kind: 'agent'; readonly command: string } | { readonly kind: 'none' }

export interface EnterLaneInput {
  readonly name: string
  /** Absent: keep what the lane had (a new lane gets claude). */
  readonly agent?: LaneAgent | undefined
  /** Write the generated lane instructions (AGENTS.md) because no sangam hooks will inject them. */
  readonly writeInstructions: boolean
  /** Runs on the lane's worktree once it exists, before its agent starts (files it must find). */
  readonly prepare?: ((worktree: string) => void | Promise<void>) | undefined
}

export interface EnteredLane {
  readonly lane: {
    readonly name: string
    readonly branch: string
    readonly worktree: string
    readonly state: string
    readonly owner: string
  }
  readonly created: boolean
  /** What must be handled first (an active task, work not in main, main moved on). */
  readonly notices: readonly string[]
  /** How the agent was started: a tmux pane, or the command to run (null for a human's lane). */
  readonly agent:
    | { readonly started: true; readonly pane: string; readonly command: string }
    | { readonly started: false; readonly command: string }
    | null
  readonly instructionsFile: string | null
}

/**
 * Creates lane `name` (worktree `.sangam/lanes/<name>` on `lane/<name>` from the latest main, the
 * owner's git identity set for that worktree only) or re-enters it; either way reports what is
 * unfinished before anything else and never moves the worktree. Starts its agent in a new tmux
 * window when we run inside tmux, else says the command to run.
 */
export async function enterLane(world: LaneWorld, typed: EnterLaneInput): Promise<EnteredLane> {
  // The name becomes a branch and a directory, the command is stored: no secret in either.
  const input = { ...typed, name: laneNameInput(refuseSecret('the lane name', typed.name.trim())) }
  if (input.agent?.kind === 'agent') refuseSecret("the lane's agent command", input.agent.command)
  const branch = laneBranch(input.name)
  const worktree = laneWorktreePath(world.root, input.name)
  const existing = readLane(world.db, input.name)
  const checkedOut = worktreeOfBranch(world.root, branch)
  if (checkedOut !== null && checkedOut !== worktree)
    throw laneRefused(
      'lane-exists-elsewhere',
      `branch ${branch} is checked out in another worktree: ${checkedOut}`,
      `remove that worktree (git worktree remove ${checkedOut}) or pick another lane name`,
    )
  const created = checkedOut === null
  if (created) addWorktree(world, branch, worktree)
  setIdentity(world, worktree)
  await input.prepare?.(worktree)
  const now = world.clock.now()
  const agentCommand =
    input.agent === undefined
      ? existing === null
        ? 'claude'
        : existing.agent
      : input.agent.kind === 'none'
        ? null
        : input.agent.command
  if (existing === null) {
    insertLane(
      world.db,
      {
        name: input.name,
        branch,
        worktree,
        owner: world.human,
        agent: agentCommand,
        pane: null,
        base: refCommit(world.root, world.mainBranch),
      },
      now,
    )
  } else if (agentCommand !== existing.agent) updateLane(world.db, input.name, { agent: agentCommand }, now)
  const lane = readLane(world.db, input.name)
  if (lane === null) throw new Error(`lane ${input.name} vanished after it was recorded`)
  const notices = restartNotices(world, lane)
  const instructionsFile = input.writeInstructions ? writeInstructions(world, lane) : null
  const agent = agentCommand === null ? null : startAgent(world, lane, agentCommand, notices)
  world.record(created ? 'lane.created' : 'lane.entered', input.name, {
    worktree,
    agent: agentCommand,
    notices: notices.length,
  })
  return {
    lane: { name: lane.name, branch, worktree, state: describeState(lane, worktree), owner: lane.owner },
    created,
    notices,
    agent,
    instructionsFile,
  }
}

/**
 * A lane's state as `lane` and `status` show it: task, integrating, deleting, dirty or clean.
 * `dirty`, when the caller has already asked git, spares a second `git status`.
 */
export function describeState(lane: LaneRow, worktree: string, dirty?: boolean): string {
  if (lane.state !== 'idle') return lane.state
  if (!existsSync(worktree)) return 'missing'
  return (dirty ?? isDirty(worktree)) ? 'dirty' : 'clean'
}

function addWorktree(world: LaneWorld, branch: string, worktree: string): void {
  mkdirSync(join(world.root, '.sangam', 'lanes'), { recursive: true })
  const hasBranch = refCommit(world.root, `refs/heads/${branch}`) !== null
  const args = hasBranch
    ? ['worktree', 'add', '-q', worktree, branch]
    : ['worktree', 'add', '-q', '-b', branch, worktree, world.mainBranch]
  must(runGit(args, world.root), args.slice(0, 2).join(' '))
}

/** The human's git identity, for this worktree only (`extensions.worktreeConfig`). */
function setIdentity(world: LaneWorld, worktree: string): void {
  const name = gitOutputOrNull(['config', 'user.name'], world.root) ?? world.human
  const email = gitOutputOrNull(['config', 'user.email'], world.root) ?? world.human
  must(
    runGit(['config', 'extensions.worktreeConfig', 'true'], world.root),
    'config extensions.worktreeConfig',
  )
  must(runGit(['config', '--worktree', 'user.name', name], worktree), 'config --worktree user.name')
  must(runGit(['config', '--worktree', 'user.email', email], worktree), 'config --worktree user.email')
}

/** The seed's restart notices: an active task first, then work not in main, then main moved on. */
export function restartNotices(world: LaneWorld, lane: LaneRow): string[] {
  if (lane.task !== null) {
    const task = readLaneTask(world.db, lane.task)
    return [
      `unfinished sync task ${lane.task} must be handled first: task file ${task?.file ?? '(unknown)'}, validation report ${task?.validationFile ?? '(unknown)'}; make the lane the behavioural union, commit, write the report, then run sangam sync`,
    ]
  }
  if (lane.state === 'integrating')
    return [
      'an integration of this lane was interrupted: the next sangam sync puts it right (its work is backed up first)',
    ]
  if (!existsSync(lane.worktree)) return []
  const head = headOf(lane.worktree)
  const main = refCommit(world.root, world.mainBranch)
  const dirty = isDirty(lane.worktree)
  if (dirty || (main !== null && !isAncestor(world.root, head, main)))
    return [
      `this lane has local work that is not integrated into ${world.mainBranch}: run sangam sync to publish it`,
    ]
  if (main !== null && head !== main)
    return [
      `this clean lane is behind the latest ${world.mainBranch}; it was not moved: run sangam sync to catch up`,
    ]
  return []
}

function startAgent(
  world: LaneWorld,
  lane: LaneRow,
  command: string,
  notices: readonly string[],
): EnteredLane['agent'] {
  if (world.childEnv.TMUX === undefined || world.childEnv.TMUX === '') return { started: false, command }
  if (lane.pane !== null && tmux(world, ['display-message', '-p', '-t', lane.pane, '#{pane_id}']) !== null)
    return { started: true, pane: lane.pane, command }
  const pane = tmux(world, [
    'new-window',
    '-P',
    '-F',
    '#{pane_id}',
    '-c',
    lane.worktree,
    '-n',
    `lane-${lane.name}`,
    command,
  ])
  if (pane === null) return { started: false, command }
  updateLane(world.db, lane.name, { pane }, world.clock.now())
  if (notices.length > 0) {
    // Pasted, never submitted: the agent's human reads it first.
    spawnSync('tmux', ['load-buffer', '-b', `sangam-${lane.name}`, '-'], {
      input: `sangam: ${notices.join(' ')}`,
      env: world.childEnv,
    })
    spawnSync('tmux', ['paste-buffer', '-d', '-t', pane, '-b', `sangam-${lane.name}`], {
      env: world.childEnv,
    })
  }
  return { started: true, pane, command }
}

function tmux(world: LaneWorld, args: readonly string[]): string | null {
  const result = spawnSync('tmux', args, { encoding: 'utf8', env: world.childEnv, timeout: 10_000 })
  return result.status === 0 ? result.stdout.trim() : null
}

/**
 * The lane's rules as an AGENTS.md in its worktree, for agents no sangam hook will brief: written
 * only where the project has none of its own (a file without our marker is never touched).
 */
function writeInstructions(world: LaneWorld, lane: LaneRow): string | null {
  const file = join(lane.worktree, 'AGENTS.md')
  if (existsSync(file) && !readFileSync(file, 'utf8').includes(instructionsMarker)) return null
  writeFileSync(file, `${instructionsMarker}\n${laneRulesText(lane.name, world.mainBranch)}\n`)
  return file
}

/** The rules of a lane, as the SessionStart context and the generated instructions say them. */
export function laneRulesText(name: string, mainBranch: string): string {
  return [
    `# sangam lane ${name}`,
    '',
    `You work in lane ${name} (branch lane/${name}), a worktree of its own.`,
    `- Never move \`${mainBranch}\` by hand: no merge into it, reset, rebase or push of it. Only \`sangam sync\` publishes.`,
    `- \`sangam sync\` affects only this lane and \`${mainBranch}\`; it never moves another lane.`,
    `- When this lane is built on the latest \`${mainBranch}\`, sync may publish it directly; otherwise it tries a normal Git merge under the integration lock.`,
    '- Only if Git cannot merge cleanly, sync starts a semantic task: the lane is reset to the latest main, your work is kept under refs/sangam/snapshots/<task>, and a task file says what to do: make the lane the behavioural union of both sides, stop and ask the user on a genuine contradiction, commit, write the validation report (the commands you ran and their results), then run `sangam sync` again.',
    '- If sync says integration-busy, keep working and retry later; do not ask the other lane to hurry.',
    '- Handle a restart notice (an unfinished task) before other work.',
  ].join('\n')
}
