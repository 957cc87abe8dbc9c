import type { ProjectContext } from '../../identity/services/project-context.ts'
import { boardLanesText } from '../../lanes/core/board-lanes.ts'
import { outsideLine } from '../../lanes/core/main-record.ts'
import { hasLaneTables, readLanes } from '../../lanes/store/lane-table.ts'
import { boardText } from '../../room/core/board-text.ts'
import { roomBoard } from '../../room/services/board.ts'
import { collisionsLines, collisionsOnRead } from '../../room/services/collisions-on-read.ts'
import { projectDirectory } from '../../room/services/open-room.ts'
import type { Logger } from '../../shared/logger.ts'
import type { Random } from '../../shared/random.ts'
import { isSangamError } from '../../shared/sangam-error.ts'
import type { ProjectBoard } from '../protocol/project-board-view.ts'

export type { ProjectBoard } from '../protocol/project-board-view.ts'

/**
 * The board with its lanes part. The lanes are read through the same lane world and status as
 * `sangam status` (`openLanesForReading`: `openProjectLanes` without the task courier; `laneStatus`), so the two never disagree; a project
 * without lanes spawns no git for them and adds nothing. A lanes part that cannot be read says why in
 * `lanesError` and the columns still show. Reading it writes nothing shared but what a round of
 * `sangam up` would have written when no daemon runs (`collisionsOnRead`, D350) and, with a team,
 * this machine's note of the lock holder the server named (for the brief, D307).
 */
export interface ProjectBoardInput {
  readonly log: Logger
  readonly random: Random
  readonly pid: number
}

export async function projectBoard(project: ProjectContext, input: ProjectBoardInput): Promise<ProjectBoard> {
  const collisions = await collisionsOnRead(project, input)
  const columns = roomBoard(project.db, projectDirectory(project, input.random), project.clock.now())
  if (!hasLaneTables(project.db) || readLanes(project.db).length === 0)
    return { columns, lanes: [], lock: null, lanesError: null, mainOutside: null, collisions }
  // Loaded only when there are lanes: the lane world and team sync would cost a board without
  // lanes tens of milliseconds of module loading (bench/board-lanes.ts).
  const [{ laneStatus }, { openLanesForReading }] = await Promise.all([
    import('../../lanes/services/lane-status.ts'),
    import('./project-lane-world.ts'),
  ])
  try {
    const team = openLanesForReading(project, input)
    const status = await laneStatus(team.world, team)
    return {
      columns,
      lanes: status.lanes.map((lane) => ({
        name: lane.name,
        state: lane.state,
        owner: lane.owner,
        agent: lane.agent,
        behind: lane.behind,
        dirty: lane.dirty,
        task: lane.task?.id ?? null,
        next: lane.next,
      })),
      lock:
        status.lock === null
          ? null
          : {
              lane: status.lock.lane,
              owner: status.lock.owner,
              task: status.lock.task,
              since: status.lock.since,
              heartbeatAt: status.lock.heartbeatAt,
              stale: status.lock.stale,
            },
      lanesError: null,
      mainOutside: status.mainOutside,
      collisions,
    }
  } catch (error) {
    if (!isSangamError(error)) throw error
    return {
      columns,
      lanes: [],
      lock: null,
      lanesError: { code: error.code, message: error.message },
      mainOutside: null,
      collisions,
    }
  }
}

/** The board as text: the columns (`boardText`), then the lanes and the lock when there are lanes. */
export function projectBoardText(board: ProjectBoard, now: number, width: number): string {
  const lanes =
    board.lanesError === null
      ? boardLanesText(board.lanes, board.lock, now, width)
      : [`LANES: not read (${board.lanesError.code}): ${board.lanesError.message}`]
  if (board.mainOutside !== null) lanes.splice(1, 0, cut(`  ${outsideLine(board.mainOutside)}`, width))
  const columns = boardText(board.columns, width)
  return [
    columns,
    ...[lanes, collisionsLines(board.collisions)]
      .filter((part) => part.length > 0)
      .map((part) => part.join('\n')),
  ].join('\n\n')
}

function cut(line: string, width: number): string {
  return line.length <= width ? line : `${line.slice(0, Math.max(0, width - 1))}…`
}
