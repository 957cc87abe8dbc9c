import { spawnSync } from 'node:child_process'
import { accessSync, constants, statSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { codexDaemonListens } from '../../agents/codex/services/codex-daemon.ts'
import { deliveryOf, vendorFor } from '../../agents/vendors.ts'
import type { VendorAbilities } from '../core/delivery-decision.ts'
import type { DeliveryVendor } from '../core/delivery-vocabulary.ts'

/** A vendor CLI found on this machine, and what its `--help` says it can do. */
export interface VendorCli {
  readonly vendor: DeliveryVendor
  /** Absolute path of the executable, or null when none was found. */
  readonly path: string | null
  readonly abilities: VendorAbilities
  /** Claude Code's `--help` lists `agents` (2.1.332+): `claude agents --json` can be asked. */
  readonly listsAgents: boolean
}

export interface VendorCliPlaces {
  /** `PATH` of the user's environment. */
  readonly path: string | undefined
  readonly home: string
  /** The directory of the running node, where `npm install -g` puts executables by default. */
  readonly nodeBinDir: string | null
  /** The environment the CLI's `--help` runs with (the user's own). */
  readonly env: Readonly<Record<string, string>>
}

/** Each `--help` waits at most this long; past it the CLI counts as not offering anything. */
const helpTimeoutMs = 5000

/**
 * Finds the vendor's CLI (`claude`, `codex`, `gemini`): every directory of PATH, then the usual install places
 * (`~/.local/bin`, `/usr/local/bin`, `/opt/homebrew/bin`, npm's global bin beside node,
 * `~/.npm-global/bin`). Then reads its `--help` once: Codex's `queue` command (0.171+) and Claude
 * Code's `--bg` flag and `agents` command (2.1.332+) are used only when the installed version lists them.
 */
export function findVendorCli(vendor: DeliveryVendor, places: VendorCliPlaces): VendorCli {
  const path = locate(vendorFor(vendor).executable, places)
  if (path === null)
    return {
      vendor,
      path: null,
      abilities: { found: false, queue: false, background: false },
      listsAgents: false,
    }
  const help = spawnSync(path, ['--help'], {
    encoding: 'utf8',
    timeout: helpTimeoutMs,
    env: places.env,
    stdio: 'pipe',
  })
  const text = help.error === undefined ? `${help.stdout ?? ''}\n${help.stderr ?? ''}` : ''
  const { queue, background, listsAgents } = deliveryOf(vendor).helpAbilities(text)
  return { vendor, path, abilities: { found: true, queue, background }, listsAgents }
}

function locate(name: string, places: VendorCliPlaces): string | null {
  const dirs = [
    ...(places.path ?? '').split(delimiter).filter((dir) => dir !== ''),
    join(places.home, '.local', 'bin'),
    '/usr/local/bin',
    '/opt/homebrew/bin',
    ...(places.nodeBinDir === null ? [] : [places.nodeBinDir]),
    join(places.home, '.npm-global', 'bin'),
  ]
  for (const dir of dirs) {
    const candidate = join(dir, name)
    try {
      if (!statSync(candidate).isFile()) continue
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // Not here.
    }
  }
  return null
}

/**
 * What the vendor CLI can do, as the decision weighs it; null when it was not looked up. `codex
 * queue --resume` runs a turn only on Codex's own daemon (codex-daemon.ts): without it the
 * message is only queued, so the session is resumed instead.
 */
export function abilitiesFor(
  vendor: DeliveryVendor,
  cli: VendorCli | null,
  vendorEnv: Readonly<Record<string, string>>,
): VendorAbilities | null {
  if (cli === null) return null
  return vendor === 'codex' && cli.abilities.queue && !codexDaemonListens(vendorEnv)
    ? { ...cli.abilities, queue: false }
    : cli.abilities
}
