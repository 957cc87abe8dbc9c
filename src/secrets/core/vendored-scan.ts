import { gitleaksRules } from './gitleaks-rules.ts'
import { placeholder, placeholderStart } from './shapes.ts'
import type { VendoredAllowlist, VendoredRule } from './vendored-rule.ts'

/**
 * Runs the vendored ruleset (gitleaks' rules, gitleaks-rules.ts) the way gitleaks does: a rule
 * runs only on text holding one of its keywords (found by the scrubber's one pre-scan, through
 * `keywordTrigger`), its secret must reach the rule's entropy, and its allowlists and the global
 * one may clear it. Each secret is replaced by `[REDACTED:<rule id>]`.
 */

const rules: readonly VendoredRule[] = gitleaksRules.rules

/**
 * The rules whose keywords occur in `text`, found the slow way, one `includes` per keyword: what
 * `vendoredCandidates` must find (`scrubSecretsExhaustively` uses it; tests hold the two equal).
 */
export function vendoredRulesBySearch(text: string): number[] {
  const lower = text.replace(/[A-Z]/g, (char) => char.toLowerCase())
  return rules.flatMap((rule, index) =>
    rule.keywords.length === 0 || rule.keywords.some((keyword) => lower.includes(keyword)) ? [index] : [],
  )
}

/** Rule indices by keyword (lower case), for the one keyword pass (candidates.ts). */
export const rulesByKeyword: ReadonlyMap<string, readonly number[]> = (() => {
  const byKeyword = new Map<string, number[]>()
  rules.forEach((rule, index) => {
    for (const keyword of rule.keywords) byKeyword.set(keyword, [...(byKeyword.get(keyword) ?? []), index])
  })
  return byKeyword
})()

/** Rules without keywords run whatever the text holds (the ruleset has none today). */
export const keywordlessRules: readonly number[] = rules.flatMap((rule, index) =>
  rule.keywords.length === 0 ? [index] : [],
)

export interface Automaton {
  /**
   * `next[state + symbol]`: the state after reading a character of that symbol. States are
   * stored premultiplied by `width`; a state where a keyword ends is stored as its complement
   * (`~state`, negative), so the loop learns of a hit from the one read it makes anyway.
   */
  readonly next: Int32Array
  /** UTF-16 code → symbol: 0 for a character in no keyword, ASCII upper case folded to lower. */
  readonly symbols: Uint8Array
  /** UTF-16 code → 1 for `[A-Za-z0-9+/]`, else 0. */
  readonly base64: Uint8Array
  /** By (premultiplied) state: the longest keyword ending there, as an index into `words`, or -1. */
  readonly wordAt: Int32Array
  readonly words: readonly string[]
  readonly width: number
}

/**
 * A complete Aho-Corasick automaton. Its alphabet is only the characters keywords use (about 40),
 * so the table stays small enough for the CPU's cache. Each state reports the longest keyword
 * ending there; the shorter ones ending there too are inside it, so a keyword's rules are closed
 * over the keywords it contains (see candidates.ts).
 */
export function buildAutomaton(words: readonly string[]): Automaton {
  const symbols = new Uint8Array(0x10000)
  let width = 1
  for (const word of words) {
    for (const char of word) {
      const code = char.charCodeAt(0)
      if (symbols[code] !== 0) continue
      symbols[code] = width
      const upper = char.toUpperCase().charCodeAt(0)
      if (upper !== code && upper < 128) symbols[upper] = width
      width++
    }
  }
  const base64 = new Uint8Array(0x10000)
  for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') {
    base64[char.charCodeAt(0)] = 1
  }
  const goto: Map<number, number>[] = [new Map()]
  const ends: number[] = [-1]
  words.forEach((word, index) => {
    let state = 0
    for (const char of word) {
      const symbol = symbols[char.charCodeAt(0)] ?? 0
      let child = goto[state]?.get(symbol)
      if (child === undefined) {
        child = goto.length
        goto.push(new Map())
        ends.push(-1)
        goto[state]?.set(symbol, child)
      }
      state = child
    }
    ends[state] = index
  })
  const states = goto.length
  const plain = new Int32Array(states * width)
  const fail = new Int32Array(states)
  const queue: number[] = []
  for (let symbol = 1; symbol < width; symbol++) {
    const child = goto[0]?.get(symbol) ?? 0
    plain[symbol] = child
    if (child !== 0) queue.push(child)
  }
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head] ?? 0
    const failState = fail[state] ?? 0
    if (ends[state] === -1) ends[state] = ends[failState] ?? -1
    for (let symbol = 1; symbol < width; symbol++) {
      const child = goto[state]?.get(symbol)
      const fallback = plain[failState * width + symbol] ?? 0
      if (child === undefined) {
        plain[state * width + symbol] = fallback
      } else {
        plain[state * width + symbol] = child
        fail[child] = fallback
        queue.push(child)
      }
    }
  }
  const next = new Int32Array(states * width)
  const wordAt = new Int32Array(states * width).fill(-1)
  for (let at = 0; at < next.length; at++) {
    const target = plain[at] ?? 0
    const word = ends[target] ?? -1
    next[at] = word === -1 ? target * width : ~(target * width)
    wordAt[target * width] = word
  }
  return { next, symbols, base64, wordAt, words, width }
}

interface Span {
  readonly start: number
  readonly end: number
  readonly type: string
}

/** Replaces what the chosen rules find; text is returned as it was when they find nothing. */
export function redactVendored(text: string, chosen: readonly number[]): string {
  const spans: Span[] = []
  for (const index of chosen) collect(text, index, spans)
  if (spans.length === 0) return text
  spans.sort((a, b) => a.start - b.start || b.end - a.end)
  let out = ''
  let copied = 0
  for (const span of spans) {
    if (span.start < copied) continue
    out += text.slice(copied, span.start) + placeholder(span.type)
    copied = span.end
  }
  return out + text.slice(copied)
}

const compiled = new Map<number, RegExp>()

function patternOf(index: number, rule: VendoredRule): RegExp {
  let pattern = compiled.get(index)
  if (pattern === undefined) {
    pattern = new RegExp(rule.source, `${rule.flags}gd`)
    compiled.set(index, pattern)
  }
  return pattern
}

function collect(text: string, index: number, spans: Span[]): void {
  const rule = rules[index]
  if (rule === undefined) return
  const pattern = patternOf(index, rule)
  pattern.lastIndex = 0
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (match[0] === '') {
      pattern.lastIndex++
      continue
    }
    const [start, end] = secretIndices(match, rule)
    const secret = text.slice(start, end)
    if (secret === '' || secret.includes(placeholderStart)) continue
    if (rule.entropy !== undefined && shannonEntropy(secret) <= rule.entropy) continue
    if (isAllowed(text, match, secret, rule.allow ?? [])) continue
    spans.push({ start, end, type: rule.id })
  }
}

/** gitleaks' choice: the rule's secret group, else the first group that matched, else the match. */
function secretIndices(match: RegExpExecArray, rule: VendoredRule): readonly [number, number] {
  const whole: [number, number] = [match.index, match.index + match[0].length]
  const indices = match.indices
  if (indices === undefined) return whole
  if (rule.secretGroup !== undefined) return indices[rule.secretGroup] ?? whole
  for (let group = 1; group < match.length; group++) {
    const span = indices[group]
    if (span !== undefined && match[group] !== '') return span
  }
  return whole
}

const globalRegexes = gitleaksRules.global.regexes.map((regex) => new RegExp(regex.source, regex.flags))
const allowRegexes = new Map<VendoredAllowlist, RegExp[]>()

function isAllowed(
  text: string,
  match: RegExpExecArray,
  secret: string,
  lists: readonly VendoredAllowlist[],
): boolean {
  const lower = secret.toLowerCase()
  if (gitleaksRules.global.stopwords.some((word) => lower.includes(word))) return true
  if (globalRegexes.some((regex) => regex.test(secret))) return true
  return lists.some((list) => {
    if (list.stopwords.some((word) => lower.includes(word))) return true
    let regexes = allowRegexes.get(list)
    if (regexes === undefined) {
      regexes = list.regexes.map((regex) => new RegExp(regex.source, regex.flags))
      allowRegexes.set(list, regexes)
    }
    if (regexes.length === 0) return false
    const target =
      list.target === 'secret' ? secret : list.target === 'match' ? match[0] : lineOf(text, match.index)
    return regexes.some((regex) => regex.test(target))
  })
}

function lineOf(text: string, at: number): string {
  const start = text.lastIndexOf('\n', at) + 1
  const end = text.indexOf('\n', at)
  return text.slice(start, end === -1 ? text.length : end)
}

/** Bits per character, as gitleaks computes it. */
export function shannonEntropy(text: string): number {
  const counts = new Map<string, number>()
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1)
  let entropy = 0
  for (const count of counts.values()) {
    const p = count / text.length
    entropy -= p * Math.log2(p)
  }
  return entropy
}
