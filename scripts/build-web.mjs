#!/usr/bin/env node
// Builds the dashboard's browser app (web/) into dist/web/, at package build time, so nothing is
// compiled when the package is installed or when `sangam ui` starts:
//   dist/web/main.js    web/main.ts and everything it imports, as one ES module. preact,
//                       preact/hooks, htm and uplot stay imports: the page's import map (the
//                       shell `sangam ui` serves) points them at the installed packages' files.
//   dist/web/style.css  web/style.css, minified (uPlot's own stylesheet the shell loads from the package).
// Types are checked by `tsc -p web` (npm run typecheck); esbuild only strips them.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'

const root = new URL('..', import.meta.url).pathname
const out = join(root, 'dist', 'web')
rmSync(out, { recursive: true, force: true })

await build({
  entryPoints: [join(root, 'web', 'main.ts')],
  outfile: join(out, 'main.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome120', 'firefox121', 'safari17'],
  external: ['preact', 'preact/hooks', 'htm', 'uplot'],
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
})

await build({
  entryPoints: [join(root, 'web', 'style.css')],
  outfile: join(out, 'style.css'),
  bundle: true,
  minify: true,
  logLevel: 'warning',
})
