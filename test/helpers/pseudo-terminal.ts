import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { cliEntry } from './run-cli.ts'

/** Whether util-linux `script` is here to open a pseudo-terminal (Debian has it: bsdutils is essential). */
export const canRunInTerminal = spawnSync('script', ['--version']).status === 0

/**
 * `sangam <args>` on a real pseudo-terminal of `columns` × 24, as a person at a terminal runs it:
 * util-linux's `script` (Debian's essential bsdutils) opens the terminal and copies what is typed
 * into it (`type`) and everything the terminal showed out of it (`screen`), echo included.
 */
export interface TerminalRun extends AsyncDisposable {
  readonly child: ChildProcess
  /** Everything the terminal was sent so far, raw (the terminal's CR LF line ends kept). */
  screen(): string
  /** `screen()` with CR LF as LF, for reading lines. */
  lines(): string[]
  type(text: string): void
  /** Resolves once the screen matches; fails with what it showed after 20 s (a hang, not a timing claim). */
  saw(pattern: RegExp): Promise<void>
  /** The exit code, once the command has ended. */
  readonly exited: Promise<number | null>
}

export function runInTerminal(
  args: readonly string[],
  options: { cwd: string; env: Record<string, string | undefined>; columns?: number },
): TerminalRun {
  const command = [process.execPath, cliEntry, ...args].map(shellQuote).join(' ')
  const columns = options.columns ?? 80
  const child = spawn('script', ['-qfec', `stty cols ${columns} rows 24; exec ${command}`, '/dev/null'], {
    cwd: options.cwd,
    env: Object.fromEntries(
      Object.entries({ TERM: 'xterm', ...options.env }).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      ),
    ),
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let screen = ''
  const waiters: { pattern: RegExp; resolve: () => void }[] = []
  const onData = (chunk: Buffer): void => {
    screen += chunk.toString('utf8')
    for (const waiter of waiters.filter((each) => each.pattern.test(screen))) {
      waiters.splice(waiters.indexOf(waiter), 1)
      waiter.resolve()
    }
  }
  child.stdout?.on('data', onData)
  child.stderr?.on('data', onData)
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  const guard = setTimeout(() => child.kill('SIGKILL'), 60_000)
  void exited.then(() => clearTimeout(guard))
  return {
    child,
    screen: () => screen,
    lines: () => screen.replaceAll('\r\n', '\n').split('\n'),
    type: (text) => {
      child.stdin?.write(text)
    },
    saw(pattern) {
      if (pattern.test(screen)) return Promise.resolve()
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`the terminal never showed ${pattern}; it showed:\n${screen}`)),
          20_000,
        )
        waiters.push({
          pattern,
          resolve: () => {
            clearTimeout(timer)
            resolve()
          },
        })
      })
    },
    exited,
    [Symbol.asyncDispose]: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
    },
  }
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`
}
