import { createInterface } from 'node:readline'
import type { ProjectContext } from '../../../identity/services/project-context.ts'
import { boardText } from '../../../room/core/board-text.ts'
import { roomBoard } from '../../../room/services/board.ts'
import { ChatSession } from '../../../room/services/chat.ts'
import { messageView, threadView } from '../../../room/services/message-view.ts'
import { projectDirectory } from '../../../room/services/open-room.ts'
import { projectTargetsInput } from '../../../room/services/project-targets.ts'
import { describeTargets, loadTargets } from '../../../room/services/targets.ts'
import { listThreads } from '../../../room/services/threads.ts'
import { systemRandom } from '../../../shared/random.ts'
import { isSangamError } from '../../../shared/sangam-error.ts'
import { cliAuthor } from '../../cli-author.ts'
import type { CommandContext, CommandRun } from '../../command.ts'
import { clearLine, readlineOutput } from '../../terminal-stream.ts'
import type { chatInput } from './inputs.ts'
import { messageLines } from './message-text-lines.ts'
import { terminalWidth, withProject } from './room-command.ts'
import { threadLines } from './thread-lines.ts'

/** How often the room's table is read for new messages (the replicator writes pulled ones there). */
const pollMs = 250
const defaultRecent = 20

const help = [
  'Type a line and press Enter to post it to the whole room; @handle and #worktree in it address them.',
  '/targets   who and where the room can address',
  '/threads   the open threads',
  '/board     the board: backlog, doing, blocked, done',
  '/help      this help',
  '/quit      leave (so do Ctrl-C and Ctrl-D)',
].join('\n')

/**
 * `chat`: the room for a human at a terminal. Prints the recent messages, then every new one as it
 * arrives (a read of the store every 250 ms), posts each typed line, answers slash commands, and
 * keeps the human's presence online until it ends: `/quit`, end of input, Ctrl-C or SIGTERM.
 */
export const run: CommandRun<typeof chatInput> = (ctx, _args, options) =>
  withProject(ctx, async (project) => {
    const chat = new ChatSession(project, systemRandom, ctx.cwd, cliAuthor(ctx, 'chat'))
    const out = new ChatOutput(ctx)
    const recent = chat.start(options.recent ?? defaultRecent)
    try {
      out.print(
        [
          `sangam chat: ${project.repo.root} as ${project.human} (/help for commands, /quit to leave)`,
          ...(recent.length === 0 ? ['no messages yet'] : recent.map((m) => messageLines(messageView(m)))),
        ].join('\n'),
      )
      await converse(ctx, project, chat, out)
    } finally {
      chat.stop()
    }
    return { json: undefined, text: '' }
  })

async function converse(
  ctx: CommandContext,
  project: ProjectContext,
  chat: ChatSession,
  out: ChatOutput,
): Promise<void> {
  const rl = createInterface({ input: ctx.stdin, output: readlineOutput(ctx.stdout), terminal: out.tty })
  out.attach(rl)
  rl.setPrompt('> ')
  const follow = setInterval(() => {
    const arrived = chat.poll()
    if (arrived.length > 0) out.print(arrived.map((m) => messageLines(messageView(m))).join('\n'))
  }, pollMs)
  // Set by /quit, Ctrl-C or a stop: lines typed after it are not answered (the end of input is no quit).
  let quit = false
  let failed: { readonly error: unknown } | null = null
  const stop = (): void => {
    quit = true
    rl.close()
  }
  const answer = async (line: string): Promise<void> => {
    const typed = line.trim()
    if (quit) return
    if (typed === '') return out.prompt()
    if (typed.startsWith('/')) {
      if ((await command(ctx, project, typed, out)) === 'quit') return stop()
      return out.prompt()
    }
    try {
      const posted = chat.say(typed)
      // Shown by a read of the table, like everyone else's messages.
      const arrived = chat.poll()
      out.print(arrived.map((m) => messageLines(messageView(m))).join('\n'))
      if (!arrived.some((m) => m.id === posted.id)) {
        out.print(`(the same as your last message ${posted.id}: taken for a retry, not posted twice)`)
      }
    } catch (error) {
      if (!isSangamError(error)) throw error
      out.print(`not posted: ${error.message}`)
    }
  }
  // One line at a time, in the order typed: a command that asks git (/targets) answers before the next line.
  let turn: Promise<void> = Promise.resolve()
  try {
    await new Promise<void>((resolve) => {
      rl.on('close', () => resolve())
      rl.on('SIGINT', stop)
      ctx.stopSignal.addEventListener('abort', stop, { once: true })
      rl.on('line', (line) => {
        turn = turn
          .then(() => answer(line))
          .catch((error: unknown) => {
            failed = { error }
            stop()
          })
      })
      if (ctx.stopSignal.aborted) stop()
      else out.prompt()
    })
    // Lines typed (or piped) before the end are answered before the store closes.
    await turn
    if (failed !== null) throw (failed as { readonly error: unknown }).error
  } finally {
    clearInterval(follow)
    rl.close()
    // In a terminal the prompt line (and whatever was half typed) is left behind: end it.
    if (out.tty) ctx.stdout.write('\n')
    // Stop reading: a pipe or terminal still open (the writer has not closed it) would keep the
    // process alive after the chat, paused or not.
    const input = ctx.stdin as { destroy?: () => void }
    if (typeof input.destroy === 'function') input.destroy()
    else ctx.stdin.pause()
  }
}

async function command(
  ctx: CommandContext,
  project: ProjectContext,
  typed: string,
  out: ChatOutput,
): Promise<'quit' | null> {
  const name = typed.split(/\s+/)[0]?.toLowerCase()
  switch (name) {
    case '/quit':
    case '/exit':
      return 'quit'
    case '/help':
      out.print(help)
      return null
    case '/threads': {
      const threads = listThreads(project.db, { all: false }).map(threadView)
      out.print(threads.length === 0 ? 'no open threads' : threads.map(threadLines).join('\n'))
      return null
    }
    case '/board':
      out.print(
        boardText(
          roomBoard(project.db, projectDirectory(project, systemRandom), ctx.clock.now()),
          terminalWidth(ctx),
        ),
      )
      return null
    case '/targets': {
      const input = projectTargetsInput(project)
      out.print(describeTargets(await loadTargets(project.db, input), input.machine))
      return null
    }
    default:
      out.print(`unknown command ${name}: /help lists them`)
      return null
  }
}

/**
 * The terminal side: in a terminal, a message that arrives while the human types is printed above
 * the prompt and the half-typed line is drawn again below it; piped, lines are simply written.
 */
class ChatOutput {
  readonly #ctx: CommandContext
  readonly tty: boolean
  #rl: ReturnType<typeof createInterface> | null = null

  constructor(ctx: CommandContext) {
    this.#ctx = ctx
    this.tty = ctx.stdin.isTTY === true && ctx.stdout.isTTY === true
  }

  attach(rl: ReturnType<typeof createInterface>): void {
    this.#rl = rl
  }

  print(text: string): void {
    if (text === '') return
    if (this.tty && this.#rl !== null) {
      // Clear the prompt line, print, and redraw the prompt with what was typed so far.
      clearLine(this.#ctx.stdout)
      this.#ctx.stdout.write(`${text}\n`)
      this.#rl.prompt(true)
      return
    }
    this.#ctx.stdout.write(`${text}\n`)
  }

  prompt(): void {
    if (this.tty) this.#rl?.prompt()
  }
}
