import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { allCorpusTranscripts } from './helpers/capture-corpus.ts'
import type { DoctorFile } from './helpers/doctor-json.ts'
import { runCliJson } from './helpers/run-cli.ts'
import { tmpDir } from './helpers/tmp-git-repo.ts'

interface DoctorJson {
  project: null
  sections: { name: string; files: DoctorFile[] }[]
  rejected: { path: string; reason: string }[]
}

/** Counted apart from the pipeline: split the bytes on newlines and keep what is not blank. */
function nonBlankLines(path: string): number {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '').length
}

test('doctor --transcripts accounts for every line of every corpus transcript, storing nothing', async () => {
  await using home = tmpDir()
  const transcripts = allCorpusTranscripts()
  const doctor = await runCliJson<DoctorJson>(
    ['doctor', '--transcripts', ...transcripts.map((file) => file.path)],
    {
      cwd: home.path,
      env: {
        PATH: process.env.PATH,
        HOME: home.path,
        SANGAM_HOME: `${home.path}/.sangam`,
        SANGAM_USER: 'dev',
      },
      timeoutMs: 300_000,
    },
  )

  assert.equal(doctor.project, null)
  assert.equal(existsSync(join(home.path, '.sangam')), false, 'doctor --transcripts wrote a database')
  assert.deepEqual(doctor.rejected, [])
  const files = doctor.sections.find((section) => section.name === 'capture')?.files ?? []
  assert.deepEqual(files.map((file) => file.path).sort(), transcripts.map((file) => file.path).sort())
  for (const file of files) {
    const expected = transcripts.find((transcript) => transcript.path === file.path)
    assert.equal(file.vendor, expected?.vendor, file.path)
    assert.equal(file.lines, nonBlankLines(file.path), `${file.path}: lines`)
    assert.equal(
      file.captured + file.skipped + file.unknown + file.unparseable,
      file.lines,
      `${file.path}: classes`,
    )
    assert.equal(file.pendingBytes, 0, file.path)
    assert.ok(file.events > 0, `${file.path}: no events`)
  }
  assert.ok(files.length >= 40)
})

test('doctor --transcripts names the files it cannot check', async () => {
  await using home = tmpDir()
  const doctor = await runCliJson<DoctorJson>(['doctor', '--transcripts', 'missing.jsonl', home.path], {
    cwd: home.path,
    env: { PATH: process.env.PATH, HOME: home.path, SANGAM_USER: 'dev' },
  })
  assert.deepEqual(
    doctor.rejected.map((file) => file.reason),
    ['no such file', 'not a file'],
  )
})
