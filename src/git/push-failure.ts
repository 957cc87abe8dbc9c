import type { GitResult } from './git.ts'

/**
 * What a failed `git push --porcelain` said that a person can act on: the words of the hooks that
 * refused it (a pre-push gate's lines, a remote's `remote:` lines) and each refused ref with its
 * reason, without git's own summary (`error: failed to push some refs to …`, `hint:` advice, the
 * `To <url>` header), which names no cause. Lines keep their order and indentation; when nothing
 * else is left, git's last line, else the exit code.
 */
export function pushFailureWords(result: GitResult): string {
  const said = result.stderr
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '' && !isGitSummary(line))
  const refused = result.stdout
    .split('\n')
    .filter((line) => line.startsWith('!\t'))
    .map(refusedRef)
  const words = [...said, ...refused]
  if (words.length > 0) return words.join('\n')
  const last = result.stderr.trim().split('\n').at(-1)?.trim()
  return last === undefined || last === '' ? `git push exited ${result.code}` : last
}

/** Git's own wording around a refusal, which names no cause. */
function isGitSummary(line: string): boolean {
  return /^(error: failed to push some refs|hint: |To |Done$)/.test(line.trim())
}

/** `!\t<from>:<to>\t[rejected] (fetch first)` → `<to>: rejected (fetch first)`. */
function refusedRef(line: string): string {
  const [, refs = '', summary = ''] = line.split('\t')
  const to = refs.split(':').at(-1) ?? refs
  return `${to.replace(/^refs\/heads\//, '')}: ${summary.replace(/^\[([^\]]*)\]/, '$1').trim()}`
}
