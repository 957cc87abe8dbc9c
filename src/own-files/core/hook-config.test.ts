import assert from 'node:assert/strict'
import { test } from 'node:test'
import { addOurGroups, type HookGroup, ourHandlerPositions, removeOurGroups } from './hook-config.ts'

const isOurs = (handler: Readonly<Record<string, unknown>>): boolean => handler.command === 'ours'
const group = (timeout = 10): HookGroup => ({
  matcher: 'Edit',
  hooks: [{ type: 'command', command: 'ours', timeout }],
})
const user = {
  env: { A: '1' },
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard' }] }],
    Stop: [{ hooks: [{ type: 'command', command: 'notify' }] }],
  },
}

test('our group goes after the user’s groups, whose content and order stay', () => {
  const { config, changed } = addOurGroups(user, { PreToolUse: group(), SessionStart: group() }, isOurs, 'f')
  assert.equal(changed, true)
  assert.deepEqual(config.env, user.env)
  const hooks = config.hooks as Record<string, unknown[]>
  assert.deepEqual(hooks.PreToolUse?.[0], user.hooks.PreToolUse[0])
  assert.deepEqual(hooks.PreToolUse?.[1], group())
  assert.deepEqual(hooks.Stop, user.hooks.Stop)
  assert.deepEqual(ourHandlerPositions(config, isOurs, 'f'), [
    { event: 'PreToolUse', groupIndex: 1, handlerIndex: 0 },
    { event: 'SessionStart', groupIndex: 0, handlerIndex: 0 },
  ])
})

test('adding what is already there changes nothing; a changed group of ours is replaced, not duplicated', () => {
  const once = addOurGroups(user, { PreToolUse: group() }, isOurs, 'f').config
  assert.equal(addOurGroups(once, { PreToolUse: group() }, isOurs, 'f').changed, false)
  const updated = addOurGroups(once, { PreToolUse: group(20) }, isOurs, 'f')
  assert.equal(updated.changed, true)
  assert.deepEqual((updated.config.hooks as Record<string, unknown[]>).PreToolUse, [
    user.hooks.PreToolUse[0],
    group(20),
  ])
})

test('a handler the user added into our group survives our removal', () => {
  const mixed = {
    hooks: {
      PreToolUse: [
        {
          matcher: 'Edit',
          hooks: [
            { type: 'command', command: 'ours' },
            { type: 'command', command: 'mine' },
          ],
        },
      ],
    },
  }
  const { config } = removeOurGroups(mixed, isOurs, 'f')
  assert.deepEqual(config, {
    hooks: { PreToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'mine' }] }] },
  })
})

test('removing ours from a file that held only ours leaves an empty object; without ours nothing changes', () => {
  const ours = addOurGroups({}, { PreToolUse: group() }, isOurs, 'f').config
  assert.deepEqual(removeOurGroups(ours, isOurs, 'f'), { config: {}, changed: true })
  assert.equal(removeOurGroups(user, isOurs, 'f').changed, false)
})

test('a hooks value of the wrong shape is refused, naming the file', () => {
  assert.throws(
    () => addOurGroups({ hooks: [] }, { PreToolUse: group() }, isOurs, 'settings.json'),
    /settings\.json: "hooks" is not an object/,
  )
  assert.throws(
    () => addOurGroups({ hooks: { PreToolUse: {} } }, { PreToolUse: group() }, isOurs, 's'),
    /"hooks.PreToolUse" is not a list/,
  )
})
