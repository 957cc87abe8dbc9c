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
  assert.match(vague.ok ? '' : vague.problem, /names no command it ran/)
  assert.equal(
    checkValidationReport('Checked both behaviours.\n## Commands\n- `node --test` → passed (3 tests)\n').ok,
    true,
  )
  assert.equal(
    checkValidationReport('Union checked on the latest main.\n- `npm test`: exit code 1, one flaky test').ok,
    true,
  )
})

test('a command with what it printed after an arrow is a result; a command alone is named as lacking one', () => {
  const report = (line: string) => `Kept both lines; checked the file by hand.\n## Commands\n${line}\n`
  assert.equal(checkValidationReport(report('- `grep -c x f` → 1')).ok, true)
  assert.equal(checkValidationReport(report('- `git diff --stat main` -> 2 files changed')).ok, true)
  const bare = checkValidationReport(report('- `grep -c x f`'))
  assert.equal(bare.ok, false)
  assert.equal(
    bare.ok ? '' : bare.problem,
    'names `grep -c x f` but not its result: after the command, on its line, add a result word (passed, failed, ok, exit N) or what it printed after an arrow (- `grep -c x f` → passed, or → 1)',
  )
  // A result word before the command is not its result.
  assert.equal(checkValidationReport(report('- passed: `npm test`')).ok, false)
  assert.equal(checkValidationReport(report('- `npm test` → ')).ok, false, 'an arrow with nothing after it')
})
