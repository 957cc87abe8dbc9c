import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { type TmpDir, tmpDir } from './tmp-git-repo.ts'

/** Why a test that drives tmux skips here, or false where tmux runs: `test(name, { skip: … }, …)`. */
export function tmuxMissing(): string | false {
  try {
    execFileSync('tmux', ['-V'])
    return false
  } catch {
    return 'tmux is not installed'
  }
}

/**
 * A tmux server of the test's own, on a socket in a temporary folder (`dir`, free for the test's
 * other files), holding one session `lanes`. `env` makes a sangam command run as if inside it.
 * Disposing it kills the server, then removes the folder.
 */
export interface TmuxServer extends AsyncDisposable {
  readonly dir: TmpDir
  readonly socket: string
  readonly env: { readonly TMUX: string }
}

export function tmuxServer(): TmuxServer {
  const dir = tmpDir('sangam-tmux-')
  const socket = join(dir.path, 'sock')
  execFileSync('tmux', ['-S', socket, '-f', '/dev/null', 'new-session', '-d', '-s', 'lanes', 'sleep 600'])
  return {
    dir,
    socket,
    env: { TMUX: `${socket},1,0` },
    async [Symbol.asyncDispose]() {
      try {
        execFileSync('tmux', ['-S', socket, 'kill-server'])
      } finally {
        await dir[Symbol.asyncDispose]()
      }
    },
  }
}
