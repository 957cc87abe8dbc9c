import assert from 'node:assert/strict'
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../test/helpers/tmp-git-repo.ts'
import type { Random } from '../shared/random.ts'
import { machineIdFile } from './data-paths.ts'
import { loadMachineId } from './machine-id.ts'

const fixed = (byte: number): Random => ({
  fraction: () => 0,
  bytes: (count) => new Uint8Array(count).fill(byte),
  uuid: () => '00000000-0000-4000-8000-000000000000',
})

test('the machine id is created once from the injected Random, 0600, and read back after', async () => {
  await using home = tmpDir()
  const id = loadMachineId(join(home.path, 'sangam'), fixed(0xab))
  assert.equal(id, 'm_abababababababab')
  assert.equal(loadMachineId(join(home.path, 'sangam'), fixed(0x01)), id, 'a second run keeps the first id')
  const file = machineIdFile(join(home.path, 'sangam'))
  assert.equal(statSync(file).mode & 0o777, 0o600)
  assert.equal(readFileSync(file, 'utf8'), `${id}\n`)
})

test('two data dirs are two machines', async () => {
  await using home = tmpDir()
  assert.notEqual(loadMachineId(join(home.path, 'a')), loadMachineId(join(home.path, 'b')))
})

test('an unreadable machine-id file is not replaced silently: the create fails rather than fork the id', async () => {
  await using home = tmpDir()
  const sangamHome = join(home.path, 'sangam')
  loadMachineId(sangamHome, fixed(0x11))
  writeFileSync(machineIdFile(sangamHome), 'garbage')
  assert.throws(() => loadMachineId(sangamHome, fixed(0x22)), /EEXIST/)
})
