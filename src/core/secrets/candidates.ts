/**
 * The scrubber's pre-scan: one pass over a text that says which of its detectors could possibly
 * match, so the full scans run only where they can find something, and then only with the
 * detectors that can.
 *
 * Every detector needs a literal (`PRIVATE KEY`, `eyJ`, `sk-`, `://user:pw@`, …), and the
 * assignment rule needs a hint word followed by a separator (`token:`, `API_KEY =`), not a hint
 * word alone: "keyboard" or "authored" in tool output hold no secret. The pre-scan may report a
 * detector that then finds nothing, never the other way round: a detector whose literal is absent
 * cannot match, so leaving it out of the scan changes nothing.
 */

/** Which detectors could match; `shapes` is a bit mask over `shapeDetectors`. */
export interface SecretCandidates {
  readonly shapes: number
  readonly assignment: boolean
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

const authorizationWord = '[Aa][Uu][Tt][Hh][Oo][Rr][Ii][Zz][Aa][Tt][Ii][Oo][Nn]'

const bit = (detector: (typeof shapeDetectors)[number]): number => 1 << shapeDetectors.indexOf(detector)

/**
 * What each detector cannot match without, one capture group each. A trigger may be wider than
 * its detector (the url trigger ignores what may not come before `://`), never narrower.
 */
const triggers: readonly { readonly source: string; readonly mask: number }[] = [
  // First, so that `Authorization: …` counts as an assignment hint too (see `triggersAt`).
  {
    source:
      '(?:[Pp][Aa][Ss][Ss]|[Ss][Ee][Cc][Rr][Ee][Tt]|[Tt][Oo][Kk][Ee][Nn]|[Cc][Rr][Ee][Dd][Ee][Nn][Tt][Ii][Aa][Ll]|[Kk][Ee][Yy]|[Aa][Uu][Tt][Hh]|[Pp][Ww][Dd])' +
      '[\\w.$-]*\\\\?["\'`]?[ \\t]*[:=]',
    mask: 0,
  },
  { source: 'PRIVATE KEY', mask: bit('private-key') },
  { source: 'eyJ', mask: bit('jwt') },
  { source: 'sk-', mask: bit('anthropic-key') | bit('openai-key') },
  { source: '[sr]k_(?:live|test)_|whsec_', mask: bit('stripe-key') },
  { source: 'gh[pousr]_|github_pat_', mask: bit('github-token') },
  { source: 'AKIA|ASIA', mask: bit('aws-access-key-id') },
  { source: 'AIza', mask: bit('google-api-key') },
  { source: 'GOCSPX-', mask: bit('google-oauth-secret') },
  { source: 'xox[abposre]-|xapp-', mask: bit('slack-token') },
  { source: 'hooks\\.slack\\.com\\/', mask: bit('slack-webhook') },
  { source: ':\\/\\/[^\\s:/@"\'<>[\\]]*:[^\\s"\'<>[\\]]+@', mask: bit('url') },
  { source: authorizationWord, mask: bit('authorization') },
  { source: '[Bb]earer[ \\t]+[A-Za-z0-9._~+/-]{20}', mask: bit('bearer') },
]

/**
 * The command-line and encoded-credential detectors need a word, not a pattern, so their triggers
 * are keywords of the one keyword pass (vendored-scan.ts), which looks for all keywords at once
 * for the cost of one: in the alternation above they slowed the pre-scan twofold. Lower case; the
 * pass ignores ASCII case.
 */
export const keywordTriggers: readonly { readonly keyword: string; readonly mask: number }[] = [
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

const alternation = (list: typeof triggers): RegExp =>
  new RegExp(list.map((trigger) => `(${trigger.source})`).join('|'), 'g')

/** With the assignment hint, until one is seen; then without it (one hint is enough to know). */
const withHint = alternation(triggers)
const withoutHint = alternation(triggers.slice(1))

/** One scan of `text`; a trigger found at `i` is looked for again from `i + 1`. */
export function secretCandidates(text: string): SecretCandidates {
  let shapes = 0
  let assignment = false
  let scan = withHint
  scan.lastIndex = 0
  for (let match = scan.exec(text); match !== null; match = scan.exec(text)) {
    const at = match.index
    if (scan === withHint && match[1] !== undefined) {
      assignment = true
      // The alternation reports one trigger per position, and the hint hides any other starting
      // where it does (`Authorization: …` is both), so those are tried there one by one.
      shapes |= triggersAt(text, at)
      scan = withoutHint
    } else {
      shapes |= maskOf(match, scan === withHint ? 0 : 1)
    }
    // Triggers can overlap (`PRIVATE KEY` holds `KEY`): the next one may start inside this one.
    scan.lastIndex = at + 1
  }
  return { shapes, assignment }
}

/** The mask of the trigger whose group matched; group 1 is `triggers[first]`. */
function maskOf(match: RegExpExecArray, first: number): number {
  for (let group = 1; group < match.length; group++) {
    if (match[group] !== undefined) return triggers[group - 1 + first]?.mask ?? 0
  }
  return 0
}

/** Every trigger but the hint, anchored: tried where the hint matched. */
const stickyTriggers = triggers.slice(1).map((trigger) => ({
  pattern: new RegExp(trigger.source, 'y'),
  mask: trigger.mask,
}))

/** The masks of the triggers (other than the hint) that also match at `at`. */
function triggersAt(text: string, at: number): number {
  let mask = 0
  for (const trigger of stickyTriggers) {
    trigger.pattern.lastIndex = at
    if (trigger.pattern.test(text)) mask |= trigger.mask
  }
  return mask
}
