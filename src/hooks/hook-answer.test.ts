import assert from 'node:assert/strict'
import { test } from 'node:test'
import { denyEdit, promptContext, sessionContext } from './hook-answer.ts'

test("what the host shows of a hook's answer has others' control characters escaped", () => {
  const attack = 'leased: "rotating\x1b[2J\x1b]0;pwned\x07 \u009b1m \u202eevil"\nnext line'
  for (const answer of [denyEdit(attack), sessionContext(attack), promptContext(attack)]) {
    const output = (JSON.parse(answer.stdout) as { hookSpecificOutput: Record<string, string> })
      .hookSpecificOutput
    const shown = output.permissionDecisionReason ?? output.additionalContext ?? ''
    assert.equal(shown, 'leased: "rotating\\e[2J\\e]0;pwned\\u0007 \\u009b1m \\u202eevil"\nnext line')
  }
})
