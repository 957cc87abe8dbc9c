import { readEnvironment } from '../../src/config/environment.ts'
import { openProject } from '../../src/project/services/open-project.ts'
import { openRoom } from '../../src/room/services/open-room.ts'
import { closeThread, openThread } from '../../src/room/services/threads.ts'
import { systemClock } from '../../src/shared/clock.ts'
import { systemRandom } from '../../src/shared/random.ts'

/**
 * The board benches' threads, opened through the room's services in an initialised repository:
 * a quarter closed, a quarter human-loop, half with a human participant, each about its own
 * file `src/part-<i>.ts`, so every board of the same count reads the same mix.
 */
export function openBenchThreads(env: NodeJS.ProcessEnv, repo: string, count: number): void {
  const project = openProject(readEnvironment(env), repo, systemClock)
  try {
    const scope = openRoom(
      project,
      { human: 'bench', vendor: null, sessionId: null },
      repo,
      systemRandom,
      'human',
    )
    for (let i = 0; i < count; i += 1) {
      const thread = openThread(scope, {
        title: `thread ${i}: the projection rewrite, part ${i}`,
        reason: i % 3 === 0 ? `reason ${i}` : null,
        audience: i % 4 === 1 ? 'human-loop' : 'agents',
        lifetime: 'durable',
        participants: i % 2 === 0 ? ['@human'] : [],
        paths: [`src/part-${i}.ts`],
      })
      if (i % 4 === 0) closeThread(scope, thread.id)
    }
  } finally {
    project.close()
  }
}
