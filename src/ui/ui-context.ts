import type { Actor } from '../identity/protocol/actor.ts'
import type { ProjectContext } from '../identity/services/project-context.ts'
import type { Logger } from '../shared/logger.ts'
import type { Random } from '../shared/random.ts'
import type { ChangeFeed } from './change-feed.ts'
import type { StaticFiles } from './static-files.ts'

/** Whether teammates' changes can arrive: a daemon runs for the project, and it is attached to a team server. */
export interface LiveSources {
  readonly daemon: boolean
  readonly attached: boolean
}

/** What every route of the dashboard works with, made once by `startUiServer`. */
export interface UiContext {
  /** The project, opened once for the server's life: its connection serves every request. */
  readonly project: ProjectContext
  readonly random: Random
  readonly log: Logger
  /** Who acts from the page: the checkout's human (docs/decisions.md, D232). */
  readonly actor: Actor
  /** Where a lease pattern typed on the page starts: the top of the worktree `sangam ui` runs in. */
  readonly patternRoot: string
  readonly feed: ChangeFeed
  readonly files: StaticFiles
  readonly live: () => LiveSources
}
