import { openProject } from '../../services/project-context.ts'
import { databasePath } from '../../store/database.ts'
import type { CommandSpec } from '../command.ts'

export const initCommand: CommandSpec = {
  name: 'init',
  summary: 'Record this repository as a sangam project (local SQLite; nothing leaves the machine)',
  async run(ctx) {
    const project = openProject(ctx.env, ctx.cwd, ctx.clock)
    try {
      const json = {
        projectId: project.repo.projectId,
        root: project.repo.root,
        remote: project.repo.remote,
        identitySource: project.repo.identitySource,
        worktrees: project.repo.worktrees,
        database: databasePath(ctx.env.sangamHome, project.repo.projectId),
      }
      const text = [
        `sangam project ${json.projectId} (${json.identitySource === 'remote' ? json.remote : 'no remote; identified by its git dir'})`,
        `  database  ${json.database}`,
        `  worktrees ${json.worktrees.join(', ')}`,
      ].join('\n')
      return { json, text }
    } finally {
      project.close()
    }
  },
}
