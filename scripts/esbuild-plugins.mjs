// esbuild plugins shared by the build scripts that bundle sangam's own code
// (build-bundles.mjs for the hooks and the MCP server, build-cli.mjs for the CLI).
import { dirname, join } from 'node:path'

/**
 * zod re-exports all of its ~40 message locales (400 KB, a quarter of the MCP bundle) as
 * `z.locales`; every one is parsed and initialised at start-up, and sangam uses only the English
 * messages zod configures by default. In the bundles `z.locales` holds English alone.
 */
export const englishOnlyZod = {
  name: 'english-only-zod',
  setup(builder) {
    builder.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, ({ importer, resolveDir }) =>
      /\/zod\/v4\/(classic|core)\//.test(importer)
        ? { path: join(resolveDir, '..', 'locales', 'index.js'), namespace: 'english-only-zod' }
        : undefined,
    )
    builder.onLoad({ filter: /.*/, namespace: 'english-only-zod' }, ({ path }) => ({
      contents: "export { default as en } from './en.js'",
      resolveDir: dirname(path),
      loader: 'js',
    }))
  },
}

/**
 * The secret scrubber (src/secrets/core/) compiles its patterns and the ruleset's keyword search
 * when its module loads, which esbuild must keep as side effects of any file that imports it. It
 * has no other effects: declared free of them, it is left out of a bundle that never calls it.
 * The edit hook's bundle shares files with the write paths that refuse secrets (a lane's name)
 * but never runs them, and must not pay for the scrubber on every edit
 * (test/hooks-startup.test.ts).
 */
export const scrubberWithoutSideEffects = {
  name: 'scrubber-without-side-effects',
  setup(builder) {
    builder.onResolve({ filter: /\/secrets\/core\/[a-z-]+\.ts$/ }, ({ path, resolveDir }) => {
      const resolved = join(resolveDir, path)
      return resolved.includes('/src/secrets/core/') ? { path: resolved, sideEffects: false } : undefined
    })
  },
}
