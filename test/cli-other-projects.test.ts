import assert from 'node:assert/strict'
import { test } from 'node:test'
import { captureWorld, claudeHuman } from './helpers/capture-transcripts.ts'
import { runCli, runCliJson } from './helpers/run-cli.ts'

interface OtherProjects {
  otherProjects: { path: string; vendor: string; cwd: string | null }[]
}

test('index and doctor name the transcripts of other projects they ignored, and where each started', async () => {
  await using w = await captureWorld()
  const cwd = w.repo.path
  w.claude('mine.jsonl', claudeHuman({ cwd, session: 'm1', text: 'ours' }))
  const theirs = w.claude(
    'theirs.jsonl',
    claudeHuman({ cwd: '/somewhere/else', session: 'o1', text: 'not ours' }),
    '-somewhere-else',
  )
  const index = await runCliJson<OtherProjects>(['index'], { cwd, env: w.env })
  assert.deepEqual(index.otherProjects, [{ path: theirs, vendor: 'claude', cwd: '/somewhere/else' }])
  const doctor = await runCliJson<OtherProjects>(['doctor'], { cwd, env: w.env })
  assert.deepEqual(doctor.otherProjects, index.otherProjects)
  for (const command of ['index', 'doctor']) {
    const text = await runCli([command], { cwd, env: w.env })
    assert.equal(text.code, 0, text.stderr)
    assert.ok(
      text.stdout.includes(`${theirs} (claude, started in /somewhere/else)`),
      `${command} names it:\n${text.stdout}`,
    )
  }
})
