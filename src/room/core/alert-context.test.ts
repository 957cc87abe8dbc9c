import assert from 'node:assert/strict'
import { test } from 'node:test'
import { alertContext } from './alert-context.ts'
import type { Alert } from './alerts.ts'

const alert = (id: string, severity: Alert['severity'], title: string): Alert => ({
  id,
  type: 'file-overlap',
  severity,
  title,
  participants: ['#lane-one', '#lane-two'],
  paths: ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts'],
  threadId: null,
})

test('each alert is one line under a header that counts them; paths past three are elided', () => {
  const context = alertContext(
    [alert('a1', 'critical', '#lane-one and #lane-two would conflict'), alert('a2', 'attention', 'x')],
    2000,
  )
  assert.deepEqual(context.shown, ['a1', 'a2'])
  assert.equal(
    context.text,
    [
      'sangam house rules: 2 conditions the team set to warn or refuse (`sangam alerts` lists every one):',
      '- file-overlap [refused]: #lane-one and #lane-two would conflict (src/a.ts, src/b.ts, src/c.ts, …)',
      '- file-overlap [warned]: x (src/a.ts, src/b.ts, src/c.ts, …)',
    ].join('\n'),
  )
})

test('what does not fit the budget is not marked shown, so it comes next time; none is empty', () => {
  const many = Array.from({ length: 10 }, (_, index) => alert(`a${index}`, 'attention', 'y'.repeat(60)))
  const context = alertContext(many, 400)
  assert.ok(context.text.length <= 400)
  assert.ok(context.shown.length > 0 && context.shown.length < 10)
  assert.equal(context.text.split('\n').length, context.shown.length + 1)
  assert.deepEqual(alertContext(many, 50), { text: '', shown: [] })
  assert.deepEqual(alertContext([], 2000), { text: '', shown: [] })
})
