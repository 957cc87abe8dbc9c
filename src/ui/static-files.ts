import { readFile } from 'node:fs/promises'
import { extname, join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

/** A file to send: its bytes and type. */
export interface StaticFile {
  readonly body: Uint8Array
  readonly type: string
}

const types: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
}

/**
 * The browser libraries, each from its installed package's own ES module build, found the way
 * Node finds them (so a global install and a checkout serve the same files). A fixed list: no
 * other file of node_modules is reachable.
 */
const vendorFiles: Readonly<Record<string, string>> = {
  'preact.mjs': 'preact',
  'preact-hooks.mjs': 'preact/hooks',
  'htm.mjs': 'htm',
  // uplot's package has no exports map and its main is CommonJS: its ES build by path.
  'uplot.mjs': 'uplot/dist/uPlot.esm.js',
  'uplot.css': 'uplot/dist/uPlot.min.css',
}

/** Where each vendor name's file is, resolved once. */
export function vendorPaths(): ReadonlyMap<string, string> {
  return new Map(
    Object.entries(vendorFiles).map(([name, specifier]) => [
      name,
      fileURLToPath(import.meta.resolve(specifier)),
    ]),
  )
}

/** Serves `/app/*` from the client's compiled files and `/vendor/*` from the list above. */
export class StaticFiles {
  readonly #webDir: string
  readonly #vendor: ReadonlyMap<string, string>

  constructor(webDir: string, vendor: ReadonlyMap<string, string> = vendorPaths()) {
    this.#webDir = resolve(webDir)
    this.#vendor = vendor
  }

  /** `relative` below `dist/web/` (no `..`, no absolute path, nothing outside); null when absent. */
  async app(relative: string): Promise<StaticFile | null> {
    let decoded: string
    try {
      decoded = decodeURIComponent(relative)
    } catch {
      return null
    }
    if (decoded === '' || decoded.includes('\0') || decoded.includes('\\')) return null
    const path = resolve(join(this.#webDir, decoded))
    if (!path.startsWith(this.#webDir + sep)) return null
    return fileAt(path)
  }

  async vendor(name: string): Promise<StaticFile | null> {
    const path = this.#vendor.get(name)
    return path === undefined ? null : fileAt(path)
  }
}

async function fileAt(path: string): Promise<StaticFile | null> {
  try {
    return {
      body: await readFile(path),
      type: types[extname(path).toLowerCase()] ?? 'application/octet-stream',
    }
  } catch {
    return null
  }
}
