import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/** A module tracer for a child process: pass `importFlag` to node; `loaded()` lists what it saw. */
export interface ModuleTrace {
  /** `--import <this>` records every module the process loads. */
  readonly importFlag: string
  /** Every URL an ES module was loaded from and every `require:<request>`, once each, in order. */
  loaded(): string[]
}

/**
 * Writes, into `dir`, a loader hook that appends each module URL to a log, and a preload that
 * registers it. CommonJS requires (packages' own files, modules loaded on demand) bypass loader
 * hooks, so the preload also wraps `Module._load` and logs `require:<request>`. What a process
 * loads decides its start-up time; the tests pin what must stay off a path.
 */
export function moduleTrace(dir: string): ModuleTrace {
  const log = join(dir, 'loaded.txt')
  const hooks = join(dir, 'trace-hooks.mjs')
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs'
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(log)}, url + '\\n')
  return next(url, context)
}`,
  )
  const register = join(dir, 'register.mjs')
  writeFileSync(
    register,
    `import Module, { register } from 'node:module'
import { appendFileSync } from 'node:fs'
register(${JSON.stringify(pathToFileURL(hooks).href)})
const load = Module._load
Module._load = function (request, parent, isMain) {
  appendFileSync(${JSON.stringify(log)}, 'require:' + request + '\\n')
  return load.call(this, request, parent, isMain)
}
`,
  )
  writeFileSync(log, '')
  return {
    importFlag: pathToFileURL(register).href,
    loaded: () => [
      ...new Set(
        readFileSync(log, 'utf8')
          .split('\n')
          .filter((line) => line !== ''),
      ),
    ],
  }
}
