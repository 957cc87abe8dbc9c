import assert from 'node:assert/strict'
import { chmodSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { test } from 'node:test'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import { attachmentFile } from '../../config/data-paths.ts'
import { newClientId, newProjectKey } from './attach.ts'
import { type Attachment, readAttachment, writeAttachment } from './attachment.ts'

const attachment: Attachment = {
  url: 'https://sync.example.dev',
  projectId: 'prj_55c77fa74600c37a',
  clientId: newClientId(),
  key: newProjectKey(),
  attachedAt: '2026-11-29T10:00:00.000Z',
}

test('a fresh key is 32 random bytes in base64url, and no two are alike', () => {
  const keys = new Set(Array.from({ length: 100 }, newProjectKey))
  assert.equal(keys.size, 100)
  for (const key of keys) assert.match(key, /^[A-Za-z0-9_-]{43}$/)
  assert.match(newClientId(), /^cli_[A-Za-z0-9_-]{16}$/)
})

test('the attachment is written whole, readable only by its owner, and read back', async () => {
  await using dir = tmpDir()
  assert.equal(readAttachment(dir.path), null, 'not attached')
  writeAttachment(dir.path, attachment)
  assert.equal(statSync(attachmentFile(dir.path)).mode & 0o777, 0o600)
  assert.deepEqual(readAttachment(dir.path), attachment)
  assert.deepEqual(readdirSync(dir.path), ['sync.json'], 'no temporary file left behind')
})

test('an attachment copied in with loose permissions is tightened when read', async () => {
  await using dir = tmpDir()
  writeAttachment(dir.path, attachment)
  chmodSync(attachmentFile(dir.path), 0o644)
  readAttachment(dir.path)
  assert.equal(statSync(attachmentFile(dir.path)).mode & 0o777, 0o600)
})

test('a damaged attachment is an error that says what to do, without echoing its content', async () => {
  await using dir = tmpDir()
  writeFileSync(attachmentFile(dir.path), `{"url":"https://x.dev","key":"${attachment.key}"}`)
  assert.throws(
    () => readAttachment(dir.path),
    (error: Error & { code?: string }) =>
      error.code === 'STORE_INCOMPATIBLE' &&
      /sangam join/.test(error.message) &&
      !error.message.includes(attachment.key),
  )
  writeFileSync(attachmentFile(dir.path), 'not json')
  assert.throws(() => readAttachment(dir.path), { code: 'STORE_INCOMPATIBLE' })
})
