import { isAbsolute, resolve } from 'node:path'
import { gitOutput } from './git.ts'

/**
 * The hooks directory git runs for this checkout: `git rev-parse --git-path hooks` honours
 * `core.hooksPath` and is shared by every worktree of the repository.
 */
export function gitHooksDir(worktreeRoot: string): string {
  const path = gitOutput(['rev-parse', '--git-path', 'hooks'], worktreeRoot)
  return isAbsolute(path) ? path : resolve(worktreeRoot, path)
}
