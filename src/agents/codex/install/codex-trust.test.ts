import assert from 'node:assert/strict'
import { test } from 'node:test'
import { parse } from 'smol-toml'
import { trustedHashes, withoutTrustRecords, withTrustRecords } from './codex-trust.ts'

const user = '# my settings\nmodel = "gpt-5.5"   # keep this comment\n\n[features]\nplugins = false\n'
const key = '/home/me/.codex/hooks.json:pre_tool_use:1:0'

test('a trust record is appended without touching a byte of the user text', () => {
  const edit = withTrustRecords(user, [{ key, hash: 'sha256:aa' }], 'config.toml')
  assert.ok(edit.text.startsWith(user))
  assert.equal(edit.text.slice(user.length), `\n[hooks.state."${key}"]\ntrusted_hash = "sha256:aa"\n`)
  assert.deepEqual(edit.changed, [key])
  assert.equal(trustedHashes(edit.text, 'config.toml').get(key), 'sha256:aa')
})

test('a changed hash is rewritten in place; an unchanged one is left alone', () => {
  const once = withTrustRecords(user, [{ key, hash: 'sha256:aa' }], 'config.toml').text
  const same = withTrustRecords(once, [{ key, hash: 'sha256:aa' }], 'config.toml')
  assert.deepEqual(same.changed, [])
  assert.equal(same.text, once)
  const rewritten = withTrustRecords(once, [{ key, hash: 'sha256:bb' }], 'config.toml')
  assert.equal(rewritten.text, once.replace('sha256:aa', 'sha256:bb'))
  assert.doesNotThrow(() => parse(rewritten.text))
})

test('a record Codex wrote with other settings in its table keeps them', () => {
  const codexWritten = `${user}\n[hooks.state.'${key}']\nenabled = true\ntrusted_hash = "sha256:old"\n\n[tui]\ntheme = "dark"\n`
  const edit = withTrustRecords(codexWritten, [{ key, hash: 'sha256:new' }], 'config.toml')
  assert.equal(edit.text, codexWritten.replace('sha256:old', 'sha256:new'))
  const removed = withoutTrustRecords(edit.text, [key], 'config.toml')
  assert.equal(removed.text, codexWritten.replace('trusted_hash = "sha256:old"\n', ''))
})

test('removing our records restores the user file exactly', () => {
  const other = '/home/me/.codex/hooks.json:session_start:1:0'
  const added = withTrustRecords(
    user,
    [
      { key, hash: 'sha256:aa' },
      { key: other, hash: 'sha256:cc' },
    ],
    'c',
  ).text
  assert.equal(withoutTrustRecords(added, [key, other], 'c').text, user)
})

test('a config.toml that is not TOML is refused, not rewritten', () => {
  assert.throws(
    () => withTrustRecords('model = = 1\n', [{ key, hash: 'x' }], 'config.toml'),
    /config\.toml is not valid TOML/,
  )
})
