import { spawn } from 'node:child_process'
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type * as Miniflare from 'miniflare'
import { serveRuntimeDir } from '../config/data-paths.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'

/**
 * The Workers runtime `sangam serve` runs the sync server in: Miniflare, which brings workerd
 * (about 150 MB with its platform binary and sharp). Only `serve` needs it, so it is not a
 * dependency of the CLI (D361): `serve --install-runtime` installs this exact version, the one
 * this sangam is built and tested with (package.json's devDependency; a test keeps them equal).
 */
export const serveRuntimePackage = 'miniflare'
export const serveRuntimeVersion = '4.20260426.0'

export type ServeRuntime = typeof Miniflare

/**
 * The runtime's packages with install scripts, refused by name so that npm neither runs them nor
 * warns about them: workerd's postinstall only swaps its JavaScript launcher for the binary it
 * finds in its platform package, and sharp backs Miniflare's image binding, which the sync server
 * does not use. `serve` works without either (the packed-install test runs it so).
 */
const refusedScripts = { workerd: false, sharp: false }

/** Where a usable runtime was found. */
export interface LocatedRuntime {
  /** Its package.json. */
  readonly manifest: string
  /** `beside-sangam`: resolved from sangam's own files (a checkout, or installed next to it). */
  readonly source: 'beside-sangam' | 'sangam-home'
}

export interface InstalledRuntime {
  readonly package: string
  readonly version: string
  /** The package's own folder, wherever it was found or installed. */
  readonly location: string
  /** False when it was there already. */
  readonly installed: boolean
}

/**
 * The runtime at exactly `serveRuntimeVersion`: first where Node finds it from sangam's own files
 * (the development checkout, or a user who installed it beside sangam), then in
 * `$SANGAM_HOME/runtime`. Another version is passed over: the Worker is tested with this one.
 */
export function locateServeRuntime(sangamHome: string): LocatedRuntime | null {
  const candidates = [
    { from: import.meta.url, source: 'beside-sangam' as const },
    { from: join(runtimeDir(sangamHome), 'package.json'), source: 'sangam-home' as const },
  ]
  for (const { from, source } of candidates) {
    const manifest = resolveManifest(from)
    if (manifest !== null && versionOf(manifest) === serveRuntimeVersion) return { manifest, source }
  }
  return null
}

/** Loads the runtime, or says exactly how to install it. */
export async function loadServeRuntime(sangamHome: string): Promise<ServeRuntime> {
  const located = locateServeRuntime(sangamHome)
  if (located === null) throw missingRuntime(sangamHome)
  const entry = createRequire(located.manifest).resolve(serveRuntimePackage)
  return (await import(pathToFileURL(entry).href)) as ServeRuntime
}

/**
 * Installs the runtime into `$SANGAM_HOME/runtime/<package>-<version>` with npm, unless a usable
 * one is found already. npm installs into a staging folder that is renamed into place only once
 * the install succeeded, so a failed or interrupted install leaves nothing half there. npm's own
 * output goes to `output` (stderr: stdout is `--json`'s).
 */
export async function installServeRuntime(
  sangamHome: string,
  output: NodeJS.WritableStream,
): Promise<InstalledRuntime> {
  const dir = runtimeDir(sangamHome)
  const described = { package: serveRuntimePackage, version: serveRuntimeVersion }
  const present = locateServeRuntime(sangamHome)
  if (present !== null) return { ...described, location: dirname(present.manifest), installed: false }
  const staging = `${dir}.installing-${process.pid}`
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(staging, { recursive: true, mode: 0o700 })
  writeFileSync(
    join(staging, 'package.json'),
    `${JSON.stringify(
      {
        name: 'sangam-serve-runtime',
        private: true,
        description: 'The Workers runtime of `sangam serve`, installed by `sangam serve --install-runtime`',
        dependencies: { [serveRuntimePackage]: serveRuntimeVersion },
        allowScripts: refusedScripts,
      },
      null,
      2,
    )}\n`,
  )
  output.write(`installing ${serveRuntimePackage}@${serveRuntimeVersion} into ${dir} (npm install)\n`)
  try {
    await npmInstall(staging, output, dir)
    rmSync(dir, { recursive: true, force: true })
    renameSync(staging, dir)
  } catch (error) {
    rmSync(staging, { recursive: true, force: true })
    // Another `--install-runtime` may have put it there meanwhile.
    if (locateServeRuntime(sangamHome) === null) throw error
  }
  const installed = locateServeRuntime(sangamHome)
  if (installed === null)
    throw new SangamError(
      ErrorCode.VendorCliUnavailable,
      `npm finished, but ${serveRuntimePackage}@${serveRuntimeVersion} is not in ${dir}`,
      { ...described, dir },
    )
  return { ...described, location: dirname(installed.manifest), installed: true }
}

function runtimeDir(sangamHome: string): string {
  return serveRuntimeDir(sangamHome, serveRuntimePackage, serveRuntimeVersion)
}

function resolveManifest(from: string): string | null {
  try {
    return createRequire(from).resolve(`${serveRuntimePackage}/package.json`)
  } catch {
    return null
  }
}

function versionOf(manifest: string): string | null {
  try {
    const version = (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: unknown }).version
    return typeof version === 'string' ? version : null
  } catch {
    return null
  }
}

function missingRuntime(sangamHome: string): SangamError {
  const dir = runtimeDir(sangamHome)
  const beside = resolveManifest(import.meta.url)
  const other = beside === null ? null : versionOf(beside)
  const found =
    other === null
      ? ''
      : ` (${serveRuntimePackage} ${other} is installed beside sangam, but this sangam runs ${serveRuntimeVersion})`
  return new SangamError(
    ErrorCode.VendorCliUnavailable,
    `sangam serve runs the sync server in Cloudflare's workerd through ${serveRuntimePackage}@${serveRuntimeVersion}, which is not installed with the CLI (about 150 MB)${found}. Install it once with \`sangam serve --install-runtime\` (it runs npm install into ${dir}), then run sangam serve again.`,
    { package: serveRuntimePackage, version: serveRuntimeVersion, dir },
    { next: 'sangam serve --install-runtime' },
  )
}

/** `npm install` in `cwd`; refuses with what to do by hand when npm is missing or fails. */
function npmInstall(cwd: string, output: NodeJS.WritableStream, dir: string): Promise<void> {
  const byHand = `npm install --prefix ${dir} ${serveRuntimePackage}@${serveRuntimeVersion}`
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout.pipe(output, { end: false })
    child.stderr.pipe(output, { end: false })
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new SangamError(
          ErrorCode.VendorCliUnavailable,
          error.code === 'ENOENT'
            ? `npm is not on PATH, so the runtime cannot be installed for you; install it with \`${byHand}\``
            : `npm could not be started (${error.message}); install the runtime with \`${byHand}\``,
          { dir },
          { cause: error },
        ),
      ),
    )
    child.once('close', (code, signal) => {
      if (code === 0) resolve()
      else
        reject(
          new SangamError(
            ErrorCode.VendorCliUnavailable,
            `npm install of ${serveRuntimePackage}@${serveRuntimeVersion} failed (${signal ?? `exit ${code}`}; its output is above); nothing was installed. Try again, or run \`${byHand}\``,
            { dir },
          ),
        )
    })
  })
}
