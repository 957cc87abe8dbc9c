import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { isolatedEnv } from './run-cli.ts'

/**
 * A real executable standing in for `claude` or `codex` on PATH (the real CLIs are driven by
 * test/agents/): `--help` prints `$FAKE_<VENDOR>_HELP` (so a test chooses what the installed
 * version offers) and adds a line to `$FAKE_VENDOR_HELP_LOG` when set, `agents --json` prints the file `$FAKE_CLAUDE_AGENTS_FILE` names (a listing a
 * test changes as it goes), else `$FAKE_CLAUDE_AGENTS`, and adds a line to `$FAKE_CLAUDE_AGENTS_LOG`
 * when set (so a test sees whether it was asked), `--bg` with `$FAKE_CLAUDE_BG_REFUSES` set logs
 * the refusal, says it on stderr and exits 1 (as 2.1.332 does in an untrusted workspace), and
 * anything else is a turn: it
 * appends {argv, stdin, cwd, pid, turn} as one JSON line to `$FAKE_VENDOR_LOG`, runs
 * `$FAKE_VENDOR_REPLY` (a shell command: an agent posting back; `$FAKE_SELF` names the vendor) if set, sleeps
 * `$FAKE_VENDOR_SLEEP_MS` and exits `$FAKE_VENDOR_EXIT`.
 */
export function writeFakeVendor(binDir: string, vendor: 'claude' | 'codex'): string {
  mkdirSync(binDir, { recursive: true })
  const path = join(binDir, vendor)
  const upper = vendor.toUpperCase()
  writeFileSync(
    path,
    `#!${process.execPath}
const fs = require('node:fs')
const { execSync } = require('node:child_process')
const args = process.argv.slice(2)
if (args[0] === '--help') {
  if (process.env.FAKE_VENDOR_HELP_LOG) fs.appendFileSync(process.env.FAKE_VENDOR_HELP_LOG, '${vendor} --help\\n')
  process.stdout.write(process.env.FAKE_${upper}_HELP ?? 'Usage: ${vendor} [options]\\n')
  process.exit(0)
}
if (args[0] === 'agents' && args[1] === '--json') {
  if (process.env.FAKE_CLAUDE_AGENTS_LOG) fs.appendFileSync(process.env.FAKE_CLAUDE_AGENTS_LOG, 'agents\\n')
  const file = process.env.FAKE_CLAUDE_AGENTS_FILE
  process.stdout.write(file ? fs.readFileSync(file, 'utf8') : (process.env.FAKE_CLAUDE_AGENTS ?? '[]'))
  process.exit(0)
}
if (args.includes('--bg') && process.env.FAKE_CLAUDE_BG_REFUSES) {
  fs.appendFileSync(process.env.FAKE_VENDOR_LOG, JSON.stringify({ vendor: '${vendor}', argv: args, stdin: '', cwd: process.cwd(), pid: process.pid, turn: process.env.SANGAM_DELIVERY_TURN ?? null, refused: true }) + '\\n')
  process.stderr.write(process.env.FAKE_CLAUDE_BG_REFUSES + '\\n')
  process.exit(1)
}
let stdin = ''
try { if (!args.includes('--bg') && args[0] !== 'queue') stdin = fs.readFileSync(0, 'utf8') } catch {}
fs.appendFileSync(process.env.FAKE_VENDOR_LOG, JSON.stringify({ vendor: '${vendor}', argv: args, stdin, cwd: process.cwd(), pid: process.pid, turn: process.env.SANGAM_DELIVERY_TURN ?? null }) + '\\n')
if (process.env.FAKE_VENDOR_REPLY) {
  try { execSync(process.env.FAKE_VENDOR_REPLY, { stdio: 'ignore', env: { ...process.env, FAKE_SELF: '${vendor}' } }) } catch {}
}
setTimeout(() => process.exit(Number(process.env.FAKE_VENDOR_EXIT ?? 0)), Number(process.env.FAKE_VENDOR_SLEEP_MS ?? 0))
`,
  )
  chmodSync(path, 0o755)
  return path
}

export interface FakeTurn {
  readonly vendor: string
  readonly argv: readonly string[]
  readonly stdin: string
  readonly cwd: string
  readonly pid: number
  readonly turn: string | null
}

/** The turns the fake vendors were asked for, in order. */
export function fakeTurns(log: string): FakeTurn[] {
  if (!existsSync(log)) return []
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as FakeTurn)
}

/**
 * Asha's environment in `home`, with fake `vendors` first on PATH and their turns logged to `log`
 * (read it with `fakeTurns`); `extra` adds variables (the `$FAKE_*` knobs above).
 */
export function fakeVendorEnv(
  home: string,
  vendors: readonly ('claude' | 'codex')[],
  extra: Record<string, string> = {},
): { env: Record<string, string | undefined>; log: string } {
  const bin = join(home, 'fake-bin')
  for (const vendor of vendors) writeFakeVendor(bin, vendor)
  const log = join(home, 'fake-vendor.jsonl')
  const env = isolatedEnv(home, {
    SANGAM_USER: 'asha@example.com',
    PATH: `${bin}:${process.env.PATH}`,
    FAKE_VENDOR_LOG: log,
    ...extra,
  })
  return { env, log }
}

/**
 * Puts fake `vendors` first on the PATH of a sync-world machine, their turns logged to the file it
 * returns. The machine's processes all read its one env object: every later CLI and daemon sees both.
 */
export function withFakeVendors(
  machine: { readonly home: string; readonly env: Record<string, string | undefined> },
  vendors: readonly ('claude' | 'codex')[],
): string {
  const bin = join(machine.home, 'fake-bin')
  for (const vendor of vendors) writeFakeVendor(bin, vendor)
  const log = join(machine.home, 'fake-vendor.jsonl')
  machine.env.PATH = `${bin}:${process.env.PATH}`
  machine.env.FAKE_VENDOR_LOG = log
  return log
}
