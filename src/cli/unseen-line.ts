/** A terminal's input as node gives it: a readable stream that can turn its echo off. */
export interface TerminalInput {
  readonly isTTY?: boolean | undefined
  setRawMode?(raw: boolean): unknown
  on(event: 'data', listener: (chunk: Buffer | string) => void): unknown
  off(event: 'data', listener: (chunk: Buffer | string) => void): unknown
  resume(): unknown
  pause(): unknown
}

/**
 * One line typed or pasted at a terminal, read with the terminal's echo off (raw mode), so that a
 * secret (`join`'s project key) is never drawn on the screen nor left in its scrollback (D296).
 * Backspace and Ctrl-U edit it; Enter ends it; Ctrl-D on an empty line ends it empty; Ctrl-C
 * does what Ctrl-C does to any command (this process gets SIGINT). The echo comes back however
 * it ends. Null when `input` is not a terminal: the caller reads it as a stream.
 */
export function readUnseenLine(
  input: TerminalInput,
  output: { write(text: string): unknown },
  prompt: string,
): Promise<string> | null {
  const setRawMode = input.setRawMode
  if (input.isTTY !== true || typeof setRawMode !== 'function') return null
  // Echo off before the prompt shows: whatever is pasted once it shows is never echoed.
  setRawMode.call(input, true)
  output.write(prompt)
  input.resume()
  return new Promise((resolve) => {
    let line = ''
    const finish = (interrupted: boolean): void => {
      input.off('data', onData)
      setRawMode.call(input, false)
      input.pause()
      output.write('\n')
      if (interrupted) process.kill(process.pid, 'SIGINT')
      else resolve(line)
    }
    const onData = (chunk: Buffer | string): void => {
      for (const char of chunk.toString()) {
        if (char === '\r' || char === '\n' || (char === '\u0004' && line === '')) {
          finish(false)
          return
        }
        if (char === '\u0003') {
          finish(true)
          return
        }
        if (char === '\u007f' || char === '\b') line = [...line].slice(0, -1).join('')
        else if (char === '\u0015') line = ''
        else if (char >= ' ') line += char
      }
    }
    input.on('data', onData)
  })
}
