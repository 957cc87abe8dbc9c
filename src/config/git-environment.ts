/**
 * The environment git runs with: this process's own (PATH, HOME and the user's GIT_* settings are
 * git's to read), with no pager, no prompt for credentials and untranslated messages, since sangam
 * parses what git prints. Built here because config/ is the one layer that reads `process.env`.
 */
export function gitEnvironment(): Record<string, string | undefined> {
  return { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C' }
}
