import { createRequire } from 'node:module'

/** The package version, read from package.json (one level above src/ and dist/). */
export const version: string = (createRequire(import.meta.url)('../../package.json') as { version: string })
  .version
