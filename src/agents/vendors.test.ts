import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { test } from 'node:test'
import { deliveryVendors } from '../delivery/protocol/delivery-vendor.ts'
import { vendorNames } from '../shared/vendor-names.ts'
import { readerFor } from './transcript-readers.ts'
import { vendorFor, vendorNamed, vendors } from './vendors.ts'

const src = join(import.meta.dirname, '..')
const agents = import.meta.dirname

test('the vendor folders under src/agents/, the registry and the stored names are the same vendors', () => {
  const folders = readdirSync(agents, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
  assert.deepEqual(Object.keys(vendors).sort(), folders)
  assert.deepEqual([...vendorNames].sort(), folders)
  for (const name of vendorNames) {
    assert.equal(vendorFor(name).name, name, `the ${name} line holds the ${name} descriptor`)
    assert.equal(readerFor(name).vendor, name, `the ${name} reader reads ${name}'s transcripts`)
  }
})

test('delivery names exactly the vendors whose descriptor says how to continue their sessions', () => {
  const continued = vendorNames.filter((name) => vendorFor(name).delivery !== null)
  assert.deepEqual([...deliveryVendors].sort(), [...continued].sort())
})

test('a name from outside finds its vendor, and an unknown one none', () => {
  assert.equal(vendorNamed('codex')?.displayName, 'Codex')
  assert.equal(vendorNamed('sangam'), null)
  assert.equal(vendorNamed(undefined), null)
})

/**
 * A comparison with a vendor's name outside src/agents/ (`vendor === 'claude'`, `case 'codex'`) is
 * a place a new vendor has to be taught by hand; the features ask the registry instead. The ones
 * left (source files, comments aside) may only go: lower the count when one goes.
 */
const nameSwitchesLeft: Readonly<Record<string, number>> = {
  // Claude Code's MCP registration is portable across machines; Codex's is not; opencode's
  // opencode.json is kept out of git only when init created it (the per-host MCP registration is
  // not behind the vendor interface yet: docs/architecture.md, "An agent vendor").
  'cli/commands/setup/init.ts': 2,
  // The decision's channels: Codex's queue, Claude Code's background session (core: no registry).
  'delivery/core/delivery-decision.ts': 2,
  // Codex's queue runs only with Codex's daemon.
  'delivery/services/vendor-cli.ts': 1,
  // The agent hook marks a Codex session's app-server endpoint.
  'hooks/agent-hook.ts': 1,
  'hooks/planned-steps.ts': 1,
  // Codex's hook trust, asked of Codex's app-server.
  'install/hooks-section.ts': 1,
  // Codex's exec output is split into its command and output.
  'memory/services/thread.ts': 1,
  // Claude Code's idle sessions are told from its own list (core: no registry).
  'room/core/presence-state.ts': 1,
  'room/services/targets.ts': 1,
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

test('name switches outside src/agents/ only go', () => {
  const names = vendorNames.join('|')
  const pattern = new RegExp(`[!=]==\\s*'(?:${names})'|'(?:${names})'\\s*[!=]==|case\\s+'(?:${names})'`, 'g')
  const found: Record<string, number> = {}
  for (const file of sourceFiles(src)) {
    const name = relative(src, file)
    if (name.startsWith('agents/')) continue
    const code = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/(^|\s)\/\/.*$/gm, '$1')
    const count = code.match(pattern)?.length ?? 0
    if (count > 0) found[name] = count
  }
  assert.deepEqual(found, nameSwitchesLeft)
})
