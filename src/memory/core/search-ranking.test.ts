import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { EventKind } from '../protocol/event.ts'
import { type Candidate, inverseDocumentFrequency, kindWeights, rankCandidates } from './search-ranking.ts'
import { countPhrase, foldForSearch, searchTokens } from './search-tokens.ts'

const common = { documents: 10, total: 100 }
const candidate = (seq: number, kind: EventKind, text: string, at = seq): Candidate => ({
  seq,
  kind,
  at,
  text,
})
const order = (ranked: readonly { seq: number }[]): number[] => ranked.map((hit) => hit.seq)

test('kinds rank human and note, then assistant, then thinking and system, then tool calls and output', () => {
  assert.equal(kindWeights.human, kindWeights.note)
  assert.ok(kindWeights.note > kindWeights.assistant)
  assert.ok(kindWeights.assistant > kindWeights.thinking)
  assert.equal(kindWeights.thinking, kindWeights.system)
  assert.ok(kindWeights.system > kindWeights.tool_call)
  assert.equal(kindWeights.tool_call, kindWeights.tool_output)
})

test('for the same text the kind decides, whatever the age', () => {
  const kinds: EventKind[] = ['tool_output', 'thinking', 'note', 'assistant', 'human', 'tool_call', 'system']
  const ranked = rankCandidates(
    kinds.map((kind, i) => candidate(i, kind, 'merge the lane', 100 - i)),
    [['merge']],
    [common],
  )
  assert.deepEqual(
    ranked.map((hit) => hit.kind),
    ['note', 'human', 'assistant', 'thinking', 'system', 'tool_output', 'tool_call'],
  )
})

test('same kind and text: newer first, then later stored', () => {
  const ranked = rankCandidates(
    [
      candidate(1, 'human', 'lease', 10),
      candidate(2, 'human', 'lease', 30),
      candidate(3, 'human', 'lease', 30),
    ],
    [['lease']],
    [common],
  )
  assert.deepEqual(order(ranked), [3, 2, 1])
})

test('the rarer word counts more, and more occurrences count with diminishing returns', () => {
  const ranked = rankCandidates(
    [candidate(1, 'human', 'alpha alpha alpha beta'), candidate(2, 'human', 'alpha beta beta beta')],
    [['alpha'], ['beta']],
    [
      { documents: 90, total: 100 },
      { documents: 2, total: 100 },
    ],
  )
  assert.deepEqual(order(ranked), [2, 1])
  assert.ok(
    inverseDocumentFrequency({ documents: 100, total: 100 }) > 0,
    'a word in every event still counts',
  )
})

test('a long text with one mention ranks below a short one', () => {
  const ranked = rankCandidates(
    [candidate(1, 'human', `token ${'filler '.repeat(300)}`), candidate(2, 'human', 'token rotation')],
    [['token']],
    [common],
  )
  assert.deepEqual(order(ranked), [2, 1])
})

test('tokens fold case and diacritics and split on punctuation, as the index does', () => {
  assert.deepEqual(searchTokens('Café-Straße NEAR(x) v2.1'), ['cafe', 'straße', 'near', 'x', 'v2', '1'])
  assert.equal(foldForSearch('ÉLAN'), 'elan')
  assert.equal(
    countPhrase(foldForSearch('Fencing-Token, fencing  token; fencingtoken fencing tokens'), [
      'fencing',
      'token',
    ]),
    2,
  )
  assert.equal(countPhrase('release leases lease', ['lease']), 1)
  assert.equal(countPhrase(foldForSearch('Ärger über ärger'), ['arger']), 2)
  assert.equal(
    countPhrase('x_lease lease2 (lease)', ['lease']),
    2,
    'underscore separates tokens, as in unicode61',
  )
})
