import type { Environment } from '../config/environment.ts'
import type { Actor } from '../identity/protocol/actor.ts'
import type { OpenProjectOptions, ProjectContext } from '../identity/services/project-context.ts'
import { resolveActor } from '../leases/services/actor.ts'
import { openProject } from '../project/services/open-project.ts'
import type { Clock } from '../shared/clock.ts'
import type { Logger } from '../shared/logger.ts'

/** What a tool that only reads passes to `McpContext.project`. */
export const onlyReads: OpenProjectOptions = { createStore: false }

/**
 * What every tool call may use. The project is opened on the first call that needs it and kept:
 * a server started outside a repository still answers, each call saying what is wrong, and a
 * project that appears later (git init) is picked up by the next call.
 */
export class McpContext {
  readonly env: Environment
  readonly clock: Clock
  readonly log: Logger
  /** Where the project is looked for: `CLAUDE_PROJECT_DIR` when Claude Code started us, else our cwd. */
  readonly projectDir: string
  /** sangam's version, for attribution of notes. */
  readonly version: string
  readonly #clientName: () => string | undefined
  #project: ProjectContext | null = null

  constructor(options: {
    env: Environment
    clock: Clock
    log: Logger
    cwd: string
    version: string
    clientName: () => string | undefined
  }) {
    this.env = options.env
    this.clock = options.clock
    this.log = options.log
    this.projectDir = options.env.claudeProjectDir ?? options.cwd
    this.version = options.version
    this.#clientName = options.clientName
  }

  /**
   * The project, opened once. A tool that only reads passes `onlyReads`: where no store exists it
   * answers NOT_FOUND ("nothing yet") rather than creating one (D262), and a later tool that
   * writes starts the project.
   */
  project(options: OpenProjectOptions = {}): ProjectContext {
    this.#project ??= openProject(this.env, this.projectDir, this.clock, options)
    return this.#project
  }

  /** Who is calling: the human, and the agent session when the client tells us (see resolveActor). */
  actor(): Actor {
    return resolveActor(this.env, this.project().human, this.#clientName())
  }

  close(): void {
    this.#project?.close()
    this.#project = null
  }
}
