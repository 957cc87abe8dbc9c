/**
 * The environment git runs with: this process's own (PATH, HOME and the user's GIT_* settings are
 * git's to read), with no pager, no prompt for credentials and untranslated messages, since sangam
 * parses what git prints. Built here because config/ is the one layer that reads `process.env`.
 */
export function gitEnvironment(): Record<string, string | undefined> {
  return { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C' }
}

/**
 * Whether this process's environment tells git where the repository or its config is (GIT_DIR,
 * GIT_WORK_TREE, GIT_CONFIG_*, …): then only git itself can say, and reading `.git` and the
 * locator cache (git/repository.ts) is not done.
 */
export function gitLocationOverridden(): boolean {
  return Object.keys(process.env).some(
    (name) =>
      [
        'GIT_DIR',
        'GIT_WORK_TREE',
        'GIT_COMMON_DIR',
        'GIT_CEILING_DIRECTORIES',
        'GIT_DISCOVERY_ACROSS_FILESYSTEM',
      ].includes(name) || name.startsWith('GIT_CONFIG'),
  )
}
