import assert from 'node:assert/strict'
import { test } from 'node:test'
import { checkValidationReport, taskFileText } from './task-file.ts'

const input = {
  task: '20261202-070000-000-alice',
  lane: 'alice',
  mainBranch: 'main',
  base: 'b'.repeat(40),
  snapshot: 's'.repeat(40),
  lastSeenMain: null,
  validationFile: '/r/.sangam/tasks/t.validation.md',
  snapshotDiff: '+ a line with ```` four backticks\n',
  checkCommand: 'npm test',
}

test('the task file carries the goal, the contradiction rule, the diff fenced longer than its backticks, and the report it needs', () => {
  const text = taskFileText(input)
  assert.match(text, /behavioural union/)
  assert.match(text, /stop and ask the user/)
  assert.match(text, /`````diff\n\+ a line with ```` four backticks\n`````/)
  assert.match(text, /## Commands/)
  assert.match(text, /Last seen main: unknown/)
  assert.match(text, /check `npm test`/)
})

test('a validation report must be long enough and name a command with its result', () => {
  assert.equal(checkValidationReport('done').ok, false)
  const vague = checkValidationReport('I looked at everything carefully and it all seems to work fine to me.')
  assert.equal(vague.ok, false)
  assert.match(vague.ok ? '' : vague.problem, /names no command/)
  assert.equal(
    checkValidationReport('Checked both behaviours.\n## Commands\n- `node --test` → passed (3 tests)\n').ok,
    true,
  )
  assert.equal(
    checkValidationReport('Union checked on the latest main.\n- `npm test`: exit code 1, one flaky test').ok,
    true,
  )
})
