import { buildAutomaton, keywordlessRules, rulesByKeyword } from './vendored-scan.ts'

/**
 * The scrubber's pre-scan: one pass over a text that says which of its detectors could possibly
 * match, so the full scans run only where they can find something, and then only with the
 * detectors that can. The pass is gitleaks' keyword pre-check, made once for everything: an
 * Aho-Corasick automaton over every keyword (the ruleset's and our own detectors'), ASCII case
 * ignored, that reads each character once and also notes runs of exactly 40 base64 characters.
 *
 * Every detector needs a literal (`PRIVATE KEY`, `eyJ`, `sk-`, `mysql`, `://user:pw@`, …), and the
 * assignment rule needs a hint word followed by a separator (`token:`, `API_KEY =`), not a hint
 * word alone: "keyboard" or "authored" in tool output hold no secret. Where a literal must be
 * followed by something (a separator, a `user:pw@`), a short anchored pattern checks it at the
 * keyword's end. The pre-scan may report a detector that then finds nothing, never the other way
 * round: a detector whose literal is absent cannot match, so leaving it out changes nothing.
 */

/** Which detectors could match; `shapes` is a bit mask over `shapeDetectors`. */
export interface SecretCandidates {
  readonly shapes: number
  readonly assignment: boolean
  /** The ruleset's rules (indices into gitleaks-rules.ts) whose keywords occur. */
  readonly rules: readonly number[]
  /** A maximal run of exactly 40 `[A-Za-z0-9+/]`: where a bare 40-character secret could be. */
  readonly longRun: boolean
}

/**
 * The shape detectors of the scrubber, in the order of its alternation: the token shapes of
 * `secret-shapes.ts` (`t0`…`t10`), then the context shapes.
 */
export const shapeDetectors = [
  'private-key',
  'jwt',
  'anthropic-key',
  'openai-key',
  'stripe-key',
  'github-token',
  'aws-access-key-id',
  'google-api-key',
  'google-oauth-secret',
  'slack-token',
  'slack-webhook',
  'url',
  'authorization',
  'bearer',
  'cli-flag',
  'mysql',
  'sshpass',
  'aws-configure',
  'curl-user',
  'url-signature',
  'docker-auth',
  'base64-pipe',
  'base64-here',
  'token-command',
] as const

const bit = (detector: (typeof shapeDetectors)[number]): number => 1 << shapeDetectors.indexOf(detector)

interface Trigger {
  /** Lower case; found whatever its ASCII case. */
  readonly keyword: string
  readonly mask: number
  /** Whether it is the assignment rule's hint. */
  readonly hint?: boolean
  /** What must follow the keyword for it to count, anchored at its end. */
  readonly followedBy?: string
}

const tokenHint = '[\\w.$-]*\\\\?["\'`]?[ \\t]*[:=]'

/**
 * What each detector cannot match without. A trigger may be wider than its detector (the url
 * trigger ignores what may not come before `://`; keywords ignore case), never narrower.
 */
const triggers: readonly Trigger[] = [
  ...['pass', 'secret', 'token', 'credential', 'key', 'auth', 'pwd'].map((keyword) => ({
    keyword,
    mask: 0,
    hint: true,
    followedBy: tokenHint,
  })),
  { keyword: 'private key', mask: bit('private-key') },
  { keyword: 'eyj', mask: bit('jwt') },
  { keyword: 'sk-', mask: bit('anthropic-key') | bit('openai-key') },
  ...['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_', 'whsec_'].map((keyword) => ({
    keyword,
    mask: bit('stripe-key'),
  })),
  ...['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'].map((keyword) => ({
    keyword,
    mask: bit('github-token'),
  })),
  { keyword: 'akia', mask: bit('aws-access-key-id') },
  { keyword: 'asia', mask: bit('aws-access-key-id') },
  { keyword: 'aiza', mask: bit('google-api-key') },
  { keyword: 'gocspx-', mask: bit('google-oauth-secret') },
  ...['xoxa-', 'xoxb-', 'xoxp-', 'xoxo-', 'xoxs-', 'xoxr-', 'xoxe-', 'xapp-'].map((keyword) => ({
    keyword,
    mask: bit('slack-token'),
  })),
  { keyword: 'hooks.slack.com/', mask: bit('slack-webhook') },
  { keyword: '://', mask: bit('url'), followedBy: '[^\\s:/@"\'<>[\\]]*:[^\\s"\'<>[\\]]+@' },
  { keyword: 'authorization', mask: bit('authorization') },
  { keyword: 'bearer', mask: bit('bearer'), followedBy: '[ \\t]+[A-Za-z0-9._~+/-]{20}' },
  { keyword: '--', mask: bit('cli-flag') },
  { keyword: 'mysql', mask: bit('mysql') },
  { keyword: 'mariadb', mask: bit('mysql') },
  { keyword: 'sshpass', mask: bit('sshpass') },
  { keyword: 'configure', mask: bit('aws-configure') },
  { keyword: 'curl', mask: bit('curl-user') },
  { keyword: 'sig=', mask: bit('url-signature') },
  { keyword: 'signature=', mask: bit('url-signature') },
  { keyword: '"auth', mask: bit('docker-auth') },
  { keyword: 'base64', mask: bit('base64-pipe') | bit('base64-here') },
  { keyword: 'heroku', mask: bit('token-command') },
  { keyword: 'gcloud', mask: bit('token-command') },
  { keyword: 'gh auth', mask: bit('token-command') },
  { keyword: 'gh\tauth', mask: bit('token-command') },
  { keyword: 'vault', mask: bit('token-command') },
]

/** A check to make where a keyword ends: `back` characters before the end of the word found. */
interface Check {
  readonly pattern: RegExp
  readonly back: number
  readonly mask: number
  readonly hint: boolean
}

/**
 * What finding a keyword means: the rules and detectors of every keyword inside it too (the
 * automaton reports the longest keyword ending at a position), and the checks of those that need
 * one, at the places they end.
 */
interface Meaning {
  readonly rules: readonly number[]
  readonly mask: number
  readonly checks: readonly Check[]
}

/** The keyword automaton and what each word means, built at the first scan. */
interface Scanner {
  readonly automaton: ReturnType<typeof buildAutomaton>
  readonly meanings: readonly Meaning[]
  /** Which words a pass has met already, by pass number: no clearing between texts. */
  readonly metIn: Uint32Array
}

/**
 * Built on first use, not at import: the automaton over every keyword of the ruleset takes tens
 * of milliseconds, which every process that merely imports the scrubber (the MCP server, for
 * `ctx_note`) would pay before its first answer. The result is a constant; building it twice would
 * give the same one.
 */
let scanner: Scanner | null = null

function scannerOnce(): Scanner {
  if (scanner !== null) return scanner
  const words = [...new Set([...rulesByKeyword.keys(), ...triggers.map((trigger) => trigger.keyword)])]
  const meanings: readonly Meaning[] = words.map((word) => {
    const rules = new Set<number>()
    let mask = 0
    const checks: Check[] = []
    for (const [keyword, indices] of rulesByKeyword)
      if (word.includes(keyword)) for (const i of indices) rules.add(i)
    for (const trigger of triggers) {
      if (!word.includes(trigger.keyword)) continue
      if (trigger.followedBy === undefined) {
        mask |= trigger.mask
        continue
      }
      for (let at = word.indexOf(trigger.keyword); at !== -1; at = word.indexOf(trigger.keyword, at + 1)) {
        checks.push({
          pattern: new RegExp(trigger.followedBy, 'y'),
          back: word.length - at - trigger.keyword.length,
          mask: trigger.mask,
          hint: trigger.hint === true,
        })
      }
    }
    return { rules: [...rules].sort((a, b) => a - b), mask, checks }
  })
  scanner = { automaton: buildAutomaton(words), meanings, metIn: new Uint32Array(words.length) }
  return scanner
}

/** Whether this process built the keyword automaton: pinned off short texts' path by a test. */
export function keywordScannerBuilt(): boolean {
  return scanner !== null
}

let pass = 0

/** The one pass over `text`. */
export function secretCandidates(text: string): SecretCandidates {
  const { automaton, meanings, metIn } = scannerOnce()
  const { next, symbols, base64, wordAt } = automaton
  pass = (pass + 1) >>> 0 || 1
  let state = 0
  let run = 0
  let longRun = false
  let shapes = 0
  let assignment = false
  let rules: Set<number> | null = null
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at)
    // Typed-array reads are asserted: every index is in range by construction, and `??` in this
    // loop (which reads every character of every captured text) cost a third of its speed.
    const inRun = base64[code] as number
    if (inRun === 0 && run === 40) longRun = true
    run = inRun * (run + 1)
    let target = next[state + (symbols[code] as number)] as number
    if (target < 0) {
      target = ~target
      const word = wordAt[target] as number
      const meaning = meanings[word] as Meaning
      if (metIn[word] !== pass) {
        metIn[word] = pass
        shapes |= meaning.mask
        if (meaning.rules.length > 0) {
          rules ??= new Set()
          for (const rule of meaning.rules) rules.add(rule)
        }
      }
      for (const check of meaning.checks) {
        if (check.hint ? assignment : (shapes & check.mask) === check.mask) continue
        check.pattern.lastIndex = at + 1 - check.back
        if (!check.pattern.test(text)) continue
        if (check.hint) assignment = true
        shapes |= check.mask
      }
    }
    state = target
  }
  if (run === 40) longRun = true
  if (rules === null && keywordlessRules.length === 0) return { shapes, assignment, rules: noRules, longRun }
  const chosen = new Set<number>([...keywordlessRules, ...(rules ?? [])])
  return { shapes, assignment, rules: [...chosen].sort((a, b) => a - b), longRun }
}

const noRules: readonly number[] = []
