/**
 * Text from others (a post, a lease reason, a thread title, a teammate's handle: anything another
 * person, agent or machine wrote) made harmless for a terminal: every character a terminal would
 * act on instead of show is replaced by a visible escape. The CLI passes all it writes through
 * `escapeControls` (cli/terminal-stream.ts), so no command can forget it (D290).
 *
 * Escaped: the C0 controls but newline and tab (ESC starts every cursor move, erase, title and
 * hyperlink sequence; CR rewrites a line), DEL, the C1 controls (U+0080–U+009F: U+009B is a
 * one-character CSI), and the invisible bidi controls that reorder what is shown (U+202A–U+202E,
 * U+2066–U+2069, and the marks U+200E, U+200F, U+061C). Newline ends a line and tab only moves
 * right; neither can erase, move up or recolour what is already on the screen.
 *
 * ESC shows as `\e` and CR as `\r`; every other one as `\uXXXX`. That is also how JSON spells it,
 * so escaping a JSON text gives a JSON text of the same value (JSON.stringify escapes every C0
 * control, ESC and CR included, and leaves the rest raw; they occur only inside its strings).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const controlsAndBreaks = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

const named: Readonly<Record<string, string>> = { '\u001b': '\\e', '\r': '\\r', '\n': '\\n', '\t': '\\t' }

function visible(char: string): string {
  return named[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`
}

/** `text` with every terminal control but newline and tab shown as an escape; unchanged when clean. */
export function escapeControls(text: string): string {
  return text.replace(controls, visible)
}

/**
 * A value that must stay on one line (a title, a reason, a handle, a name): as `escapeControls`,
 * and newline and tab shown as `\n` and `\t` too, so it cannot start a line of its own that reads
 * as one sangam wrote.
 */
export function oneLine(text: string): string {
  return text.replace(controlsAndBreaks, visible)
}
