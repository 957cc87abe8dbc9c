import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'

const root = join(import.meta.dirname, '..', '..')
const wrangler = join(root, 'node_modules', 'wrangler', 'bin', 'wrangler.js')
const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'sangam-wrangler-')))
after(() => rmSync(scratch, { recursive: true, force: true }))

/** `wrangler deploy --dry-run`: bundles and validates the config without an account or the network. */
function dryRun(cwd: string, outDir: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [wrangler, 'deploy', '--dry-run', '--outdir', outDir],
      {
        cwd,
        env: {
          PATH: process.env.PATH,
          HOME: scratch,
          WRANGLER_SEND_METRICS: 'false',
          CLOUDFLARE_CF_FETCH_ENABLED: 'false',
          NO_COLOR: '1',
        },
        timeout: 120_000,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    )
  })
}

test('server/wrangler.jsonc deploys (dry run, offline): the Durable Object and the limits are bound', async () => {
  const outDir = join(scratch, 'out')
  const { code, output } = await dryRun(join(root, 'server'), outDir)
  assert.equal(code, 0, output)
  assert.match(output, /env\.PROJECTS \(ProjectObject\)\s+Durable Object/)
  for (const name of ['MAX_BODY_BYTES', 'MAX_RECORDS_PER_PUSH', 'PUSHES_PER_SECOND', 'MAX_PROJECT_BYTES'])
    assert.match(output, new RegExp(`env\\.${name} \\("\\d+"\\)\\s+Environment Variable`))
  assert.ok(existsSync(join(outDir, 'worker.js')))
})

test('the dry run is a real check: a config naming a Durable Object the Worker does not export fails', async () => {
  const config = readFileSync(join(root, 'server', 'wrangler.jsonc'), 'utf8')
    .replace('"main": "src/worker.ts"', `"main": ${JSON.stringify(join(root, 'server', 'src', 'worker.ts'))}`)
    .replace('"$schema": "../node_modules/wrangler/config-schema.json",', '')
    .replaceAll('ProjectObject', 'MissingObject')
  const dir = join(scratch, 'broken')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'wrangler.jsonc'), config)
  const { code, output } = await dryRun(dir, join(scratch, 'broken-out'))
  assert.notEqual(code, 0)
  assert.match(output, /Durable Objects, which are not exported .*MissingObject/)
})
