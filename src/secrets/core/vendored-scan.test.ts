import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { secretCandidates } from './candidates.ts'
import { gitleaksCommit, gitleaksRules } from './gitleaks-rules.ts'
import { vendoredRulesBySearch } from './vendored-scan.ts'

/*
 * The vendored ruleset is generated from gitleaks' config/gitleaks.toml by
 * scripts/refresh-secret-rules.mjs (its header says how to refresh it).
 */

test('the vendored ruleset names its source commit, and every rule compiles and has keywords', () => {
  assert.match(gitleaksCommit, /^[0-9a-f]{40}$/)
  assert.ok(gitleaksRules.rules.length > 150)
  for (const rule of gitleaksRules.rules) {
    assert.doesNotThrow(() => new RegExp(rule.source, `${rule.flags}gd`), rule.id)
    assert.ok(rule.keywords.length > 0, rule.id)
    for (const keyword of rule.keywords) assert.equal(keyword, keyword.toLowerCase(), rule.id)
  }
  assert.ok(!gitleaksRules.rules.some((rule) => rule.id === 'generic-api-key'))
})

test('the one keyword pass finds exactly the rules a keyword search finds', () => {
  const keywords = [...new Set(gitleaksRules.rules.flatMap((rule) => rule.keywords))]
  const piece = fc.oneof(
    fc.constantFrom(...keywords),
    fc.constantFrom(...keywords.map((keyword) => keyword.toUpperCase())),
    fc.string({ unit: fc.constantFrom(...'aeiks_-.=: \n"\'é'), maxLength: 5 }),
  )
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
      const text = pieces.join('')
      assert.deepEqual([...secretCandidates(text).rules], vendoredRulesBySearch(text))
    }),
    { numRuns: 3000 },
  )
})
