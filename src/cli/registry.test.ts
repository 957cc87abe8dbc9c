import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { test } from 'node:test'
import { pathToFileURL } from 'node:url'
import { moduleTrace } from '../../test/helpers/module-trace.ts'
import { tmpDir } from '../../test/helpers/tmp-git-repo.ts'
import { startVendors } from './commands/delivery/inputs.ts'
import { autoLeaseRungs } from './commands/leases/inputs.ts'
import {
  searchInput,
  searchKinds,
  searchLimitMax,
  searchVendors,
  threadBoundMax,
} from './commands/memory/inputs.ts'
import { commands } from './registry.ts'

const src = join(import.meta.dirname, '..')

/**
 * Runs `sangam <args>` from source (tsx) in a directory that is no repository, checks it exits
 * with `status`, and returns every module of ours (relative to src/) and every package it loaded,
 * as a loader hook saw them.
 */
async function modulesLoaded(
  args: readonly string[],
  status: number,
): Promise<{ ours: string[]; packages: string[] }> {
  await using home = tmpDir()
  const trace = moduleTrace(home.path)
  const run = spawnSync(
    process.execPath,
    [
      '--import',
      import.meta.resolve('tsx'),
      '--import',
      trace.importFlag,
      join(src, 'cli', 'main.ts'),
      ...args,
    ],
    { cwd: home.path, env: { PATH: process.env.PATH, HOME: home.path }, encoding: 'utf8' },
  )
  assert.equal(run.status, status, `sangam ${args.join(' ')}: ${run.stderr}`)
  const urls = trace.loaded()
  const base = pathToFileURL(src).href
  const ours = [...urls].filter((url) => url.startsWith(`${base}/`)).map((url) => url.slice(base.length + 1))
  const packages = [...urls].flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? [])
  return { ours: ours.sort(), packages: [...new Set(packages)].filter((name) => name !== 'tsx').sort() }
}

test('--help, --version and usage errors load no command implementation, only commander', async () => {
  const runs: [string[], number][] = [
    [['--help'], 0],
    [['--version'], 0],
    [['claim', '--help'], 0],
    [['no-such-command'], 2],
    [['search'], 2],
  ]
  for (const [args, status] of runs) {
    const { ours, packages } = await modulesLoaded(args, status)
    assert.ok(ours.includes('cli/registry.ts'), 'the trace sees our modules')
    assert.deepEqual(
      ours.filter((path) => isImplementation(path) || !/^(cli|shared|config)\//.test(path)),
      [],
      `sangam ${args.join(' ')}`,
    )
    assert.deepEqual(packages, ['commander'], `sangam ${args.join(' ')}`)
  }
})

/** A command's module; its feature's `inputs.ts` is a declaration the registry holds, not an implementation. */
function isImplementation(path: string): boolean {
  return path.startsWith('cli/commands/') && !path.endsWith('/inputs.ts')
}

test('a command loads its own implementation and no other', async () => {
  const { ours, packages } = await modulesLoaded(['search', 'x', '--json'], 3)
  assert.deepEqual(ours.filter(isImplementation), ['cli/commands/memory/search.ts'])
  assert.deepEqual(
    packages.filter((name) => ['zod', '@modelcontextprotocol/sdk', 'ws', 'miniflare'].includes(name)),
    [],
  )
})

test('the room commands an agent runs most load no schema library', async () => {
  // zod costs a post or a read about a fifth of its start-up; the constants they check against
  // live in zod-free files (room/protocol/message-limits.ts, human-token.ts).
  for (const command of ['post', 'read', 'status']) {
    const args = command === 'post' ? ['post', 'hello'] : [command]
    const { packages } = await modulesLoaded(args, 3)
    assert.deepEqual(
      packages.filter((name) => ['zod', '@modelcontextprotocol/sdk', 'ws', 'miniflare'].includes(name)),
      [],
      `sangam ${command}`,
    )
  }
})

test("every command's implementation loads and exports run", async () => {
  for (const command of commands) {
    const implementation = await command.load()
    assert.equal(typeof implementation.run, 'function', command.name)
  }
})

test('command names are unique', () => {
  const names = commands.map((command) => command.name)
  assert.deepEqual([...new Set(names)], names)
})

test("the registry's lists of values are the program's own", async () => {
  const { vendorSchema, eventKindSchema } = await import('../memory/protocol/event.ts')
  const { autoLeaseRungSchema } = await import('../leases/protocol/lease.ts')
  const { defaultSearchLimit, maxSearchLimit } = await import('../memory/protocol/search-input.ts')
  const { maxThreadItems } = await import('../memory/services/thread.ts')
  assert.deepEqual([...searchVendors], vendorSchema.options)
  assert.deepEqual([...searchKinds].sort(), [...eventKindSchema.options].sort())
  assert.deepEqual([...autoLeaseRungs], autoLeaseRungSchema.options)
  assert.equal(searchLimitMax, maxSearchLimit)
  assert.match(searchInput.options.limit.description, new RegExp(`\\(default ${defaultSearchLimit}\\)$`))
  assert.equal(threadBoundMax, maxThreadItems)
  const delivery = await import('../delivery/protocol/delivery-vendor.ts')
  assert.deepEqual([...startVendors], [...delivery.startVendors])
})
