import assert from 'node:assert/strict'
import { test } from 'node:test'
import { samples } from '../../../test/helpers/secret-samples.ts'
import { checkMessageText } from './message-text.ts'

test('text is trimmed; empty and whitespace-only texts are refused', () => {
  assert.equal(checkMessageText('  hello \n'), 'hello')
  assert.throws(() => checkMessageText('   \n\t'), { code: 'INVALID_INPUT', message: /needs some text/ })
})

test('4,000 characters pass, 4,001 are refused saying how many', () => {
  assert.equal(checkMessageText('x'.repeat(4000)).length, 4000)
  assert.throws(() => checkMessageText('x'.repeat(4001)), { code: 'INVALID_INPUT', message: /4,000.*4,001/ })
})

test('a text the scrubber would change is refused naming the kind of secret', () => {
  for (const secret of [samples.anthropic, samples.openaiProject, samples.githubFineGrained, samples.awsId]) {
    assert.throws(() => checkMessageText(`here it is: ${secret}`), {
      code: 'INVALID_INPUT',
      message: /^the message text holds a secret.*nothing was stored/,
    })
  }
  assert.throws(() => checkMessageText(`token ${samples.github[0]}`), { message: /\(github-token\)/ })
})
