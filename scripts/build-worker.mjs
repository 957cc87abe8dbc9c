#!/usr/bin/env node
// Bundles the sync server (server/src/worker.ts) into dist/server/worker.js for `sangam serve`, and
// writes dist/server/worker-config.json: the parts of server/wrangler.jsonc that workerd needs
// (compatibility date and flags, the Durable Object binding, the vars), so `serve` runs exactly
// what `wrangler deploy` deploys. `wrangler deploy` bundles the same entry on its own.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'

const root = new URL('..', import.meta.url).pathname
const outDir = join(root, 'dist', 'server')
mkdirSync(outDir, { recursive: true })

await build({
  entryPoints: [join(root, 'server', 'src', 'worker.ts')],
  outfile: join(outDir, 'worker.js'),
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  mainFields: ['module', 'main'],
  conditions: ['workerd', 'worker', 'import'],
  external: ['cloudflare:*'],
  logLevel: 'warning',
})

const wrangler = JSON.parse(stripJsonComments(readFileSync(join(root, 'server', 'wrangler.jsonc'), 'utf8')))
const config = {
  name: wrangler.name,
  compatibilityDate: wrangler.compatibility_date,
  compatibilityFlags: wrangler.compatibility_flags ?? [],
  durableObjects: wrangler.durable_objects.bindings.map((binding) => ({
    binding: binding.name,
    className: binding.class_name,
  })),
  vars: wrangler.vars ?? {},
}
writeFileSync(join(outDir, 'worker-config.json'), `${JSON.stringify(config, null, 2)}\n`)

// Drops line and block comments outside strings (wrangler.jsonc is JSON with comments).
function stripJsonComments(text) {
  let out = ''
  for (let index = 0; index < text.length; index++) {
    const char = text[index]
    if (char === '"') {
      const end = endOfString(text, index)
      out += text.slice(index, end)
      index = end - 1
    } else if (char === '/' && text[index + 1] === '/') {
      while (index < text.length && text[index] !== '\n') index++
      out += '\n'
    } else if (char === '/' && text[index + 1] === '*') {
      index = text.indexOf('*/', index + 2) + 1
    } else out += char
  }
  return out
}

function endOfString(text, start) {
  let index = start + 1
  while (index < text.length && text[index] !== '"') index += text[index] === '\\' ? 2 : 1
  return index + 1
}
