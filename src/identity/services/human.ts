import { userInfo } from 'node:os'
import type { Environment } from '../../config/environment.ts'

/**
 * The human acting on this machine, as leases, notes and the pre-push gate name them:
 * `SANGAM_USER`, else the checkout's git `user.email` / `user.name` (`Repository.user` in git/repository.ts,
 * null outside a checkout or when git has neither), else the OS user. Every entry point (CLI, MCP
 * server, hooks, daemon) asks here, so one person is one name everywhere.
 */
export function resolveHuman(env: Environment, gitUser: string | null): string {
  return env.user ?? gitUser ?? userInfo().username
}
