/**
 * Lines wider than the terminal, broken at spaces instead of wherever the terminal runs out of
 * columns (D297). A continuation line keeps the line's indentation, or hangs under the column a
 * table row's text starts at (the first character after a gap of two or more spaces, when it leaves
 * room), so `--help`'s command list and the `rules` table stay readable at 80 columns. A word longer
 * than the room (a path, a URL, a key) is never cut: the terminal wraps it, and a copy keeps it whole.
 *
 * Streaming: the text may come in pieces (a prompt, then the rest of its line), so the position on
 * the current line is kept between calls.
 */
export class WordWrapper {
  /** Columns used on the current line. */
  #column = 0
  /** Whether the current line has shown anything but its leading indentation. */
  #started = false
  #indent = 0
  #hang: number | null = null
  #wrapped = false
  /** Spaces between words, written only if the next word fits after them on the line. */
  #pending = ''

  /** `text` as it should reach a terminal `width` columns wide. */
  push(text: string, width: number): string {
    let out = ''
    let from = 0
    // Whole lines that fit (nearly all of them) pass as they are; only the others are taken apart.
    while (this.#column === 0 && this.#pending === '') {
      const end = text.indexOf('\n', from)
      if (end === -1) break
      const line = text.slice(from, end)
      if (line.includes('\t') || displayWidth(line) > width) break
      out += `${line}\n`
      from = end + 1
    }
    return out + this.#tokens(from === 0 ? text : text.slice(from), width)
  }

  #tokens(text: string, width: number): string {
    let out = ''
    for (const [token] of text.matchAll(/\n|[ \t]+|[^ \t\n]+/g)) {
      if (token === '\n') {
        out += `${this.#pending}\n`
        this.#newLine()
      } else if (token[0] === ' ' || token[0] === '\t') {
        if (!this.#started) {
          out += token
          this.#column = this.#advance(this.#column, token)
          this.#indent = this.#column
        } else {
          this.#pending += token
          // A gap of two spaces separates columns: the next text's column is where a row hangs.
          const at = this.#advance(this.#column, this.#pending)
          if (!this.#wrapped && token.length >= 2 && at <= Math.floor(width * 0.6)) this.#hang = at
        }
      } else {
        const gap = this.#advance(this.#column, this.#pending) - this.#column
        const room = this.#hang ?? this.#indent
        if (this.#started && this.#column + gap + displayWidth(token) > width && this.#column > room) {
          out += `\n${' '.repeat(room)}`
          this.#column = room
          this.#wrapped = true
        } else {
          out += this.#pending
          this.#column += gap
        }
        this.#pending = ''
        out += token
        this.#column += displayWidth(token)
        this.#started = true
      }
    }
    // Spaces that end a piece are written now: a prompt's last space is part of it.
    out += this.#pending
    this.#column = this.#advance(this.#column, this.#pending)
    this.#pending = ''
    return out
  }

  /** The terminal's cursor went back to the start of an empty line (a redrawn status line ended). */
  reset(column = 0): void {
    this.#newLine()
    this.#column = column
    this.#started = column > 0
  }

  #newLine(): void {
    this.#column = 0
    this.#started = false
    this.#indent = 0
    this.#hang = null
    this.#wrapped = false
    this.#pending = ''
  }

  #advance(column: number, spaces: string): number {
    let at = column
    for (const char of spaces) at = char === '\t' ? at + 8 - (at % 8) : at + 1
    return at
  }
}

/** `text` broken at spaces to fit `width` columns (a prompt that readline draws itself). */
export function wrapText(text: string, width: number): string {
  return new WordWrapper().push(text, width)
}

/**
 * Columns `text` takes on a terminal: two for the wide East Asian scripts and emoji, none for
 * combining marks, joiners and variation selectors, one for the rest.
 */
export function displayWidth(text: string): number {
  if (!/[^ -~]/.test(text)) return text.length
  let width = 0
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0
    if (zeroWidth(code)) continue
    width += wide(code) ? 2 : 1
  }
  return width
}

function zeroWidth(code: number): boolean {
  return (
    (code >= 0x0300 && code <= 0x036f) ||
    (code >= 0x200b && code <= 0x200d) ||
    (code >= 0xfe00 && code <= 0xfe0f) ||
    (code >= 0x1f3fb && code <= 0x1f3ff)
  )
}

function wide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf && code !== 0x303f) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  )
}
