import { execFileSync } from 'node:child_process'
import { appendFileSync } from 'node:fs'
import { connectMcp } from './mcp-client.ts'
import { cliEntry } from './run-cli.ts'

/**
 * A stand-in agent answering in the room, run by the fake `claude` / `codex` (fake-vendor.ts,
 * `FAKE_VENDOR_REPLY`) during a turn sangam started: `node --import tsx room-reply.ts`. It posts
 * to the other agent the way that vendor's agents do, chosen by the worktree the turn runs in
 * (its working directory) in the JSON of `$ROOM_REPLY`:
 * - `mcp`: through a real MCP client to `sangam mcp`, with the environment and client name the
 *   vendor gives its MCP servers (Codex: no session id, a filtered environment; Claude Code: its
 *   session id);
 * - `terminal`: `sangam post` in a pseudo-terminal (util-linux `script`; Codex runs commands in a
 *   pty), with the vendor's variables but no session id.
 * What fails is appended to `log`, so the test can say why nothing was posted.
 */
export interface ReplyPlan {
  readonly log: string
  /** By the agent's worktree (a real path). */
  readonly agents: Readonly<Record<string, AgentReply>>
}

export interface AgentReply {
  readonly channel: 'mcp' | 'terminal'
  readonly cwd: string
  /** The recipient token to answer, `@handle`. */
  readonly to: string
  /** The whole environment of the MCP server or the command. */
  readonly env: Readonly<Record<string, string>>
  /** The MCP client's name (`mcp`). */
  readonly client?: string | undefined
}

async function reply(): Promise<void> {
  const plan = JSON.parse(process.env.ROOM_REPLY ?? '') as ReplyPlan
  const self = process.env.FAKE_SELF ?? ''
  const agent = plan.agents[process.cwd()]
  if (agent === undefined) return
  const text = `${self} answers (turn ${process.env.SANGAM_DELIVERY_TURN ?? '?'})`
  try {
    if (agent.channel === 'mcp') {
      await using mcp = await connectMcp(agent.cwd, agent.env, undefined, agent.client)
      const result = await mcp.call('room_post', { text, to: [agent.to] })
      if (result.isError === true) throw new Error(JSON.stringify(result.content))
      return
    }
    const command = [process.execPath, cliEntry, 'post', '--to', agent.to, text]
      .map((word) => `'${word.replaceAll("'", `'\\''`)}'`)
      .join(' ')
    execFileSync('script', ['-qec', command, '/dev/null'], { cwd: agent.cwd, env: agent.env, stdio: 'pipe' })
  } catch (error) {
    appendFileSync(plan.log, `${self}: ${(error as Error).message}\n`)
  }
}

await reply()
