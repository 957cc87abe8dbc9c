import { spawn } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { agentClisDir, agentClisIn } from '../../test/agents/agent-clis.ts'
import { tmpDir } from '../../test/helpers/tmp-git-repo.ts'
import { percentile } from './transcript-sentences.ts'

/** Time to the first byte of `<bin> --version` on stdout, ms. */
function firstOutputMs(bin: string, env: Record<string, string | undefined>): Promise<number> {
  return new Promise((resolve, reject) => {
    const began = performance.now()
    const child = spawn(bin, ['--version'], {
      env: env as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    let at: number | null = null
    child.stdout.once('data', () => {
      at = performance.now() - began
    })
    child.on('error', reject)
    child.on('close', (code) =>
      at === null ? reject(new Error(`${bin} --version exited ${code}`)) : resolve(at),
    )
  })
}

/** The median time to first output of the pinned claude and codex CLIs (null: not cached here). */
export async function vendorStartup(): Promise<Map<string, number | null>> {
  const clis = agentClisIn(agentClisDir(process.env))
  await using scratch = tmpDir('sangam-bench-vendor-')
  const env = { PATH: process.env.PATH, HOME: scratch.path, CODEX_HOME: join(scratch.path, '.codex') }
  mkdirSync(env.CODEX_HOME, { recursive: true })
  const found = new Map<string, number | null>()
  for (const [name, bin] of [
    ['claude', clis.claude],
    ['codex', clis.codex],
  ] as const) {
    if (!existsSync(bin)) {
      found.set(name, null)
      continue
    }
    await firstOutputMs(bin, env) // the first start warms the page cache
    const times: number[] = []
    for (let i = 0; i < 5; i++) times.push(await firstOutputMs(bin, env))
    found.set(
      name,
      percentile(
        times.sort((x, y) => x - y),
        50,
      ),
    )
  }
  return found
}
