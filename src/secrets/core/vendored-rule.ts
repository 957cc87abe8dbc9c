/**
 * A secret-scanning rule taken from a maintained ruleset (gitleaks-rules.ts), as data: the
 * scrubber compiles and runs it (vendored-scan.ts). The fields mean what they mean in gitleaks.
 */
export interface VendoredRule {
  /** The ruleset's id (`gitlab-pat`); it names the placeholder, `[REDACTED:gitlab-pat]`. */
  readonly id: string
  readonly source: string
  readonly flags: string
  /** Lower-case words of which one must occur in the text (case-insensitively) for the rule to run. */
  readonly keywords: readonly string[]
  /** The least Shannon entropy (bits per character) the secret must have. */
  readonly entropy?: number
  /** The capture group holding the secret; by default the first group that matched, else all. */
  readonly secretGroup?: number
  readonly allow?: readonly VendoredAllowlist[]
}

/** A match is no secret when any of its allowlists' regexes or stopwords hits. */
export interface VendoredAllowlist {
  /** What the regexes are tested against: the secret, the whole match, or the match's line. */
  readonly target: 'secret' | 'match' | 'line'
  readonly regexes: readonly { readonly source: string; readonly flags: string }[]
  /** Lower-case words: a secret containing one is no secret. */
  readonly stopwords: readonly string[]
}

export interface VendoredRules {
  readonly rules: readonly VendoredRule[]
  /** Applies to every rule: tested against the secret. */
  readonly global: {
    readonly regexes: readonly { readonly source: string; readonly flags: string }[]
    readonly stopwords: readonly string[]
  }
}
