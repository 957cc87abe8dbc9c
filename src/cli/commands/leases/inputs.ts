import { argument, choice, defineInput, duration, flag, text, words } from '../../command-input.ts'

/**
 * What the lease commands accept, declared once: main.ts parses it before a command loads
 * (src/cli/registry.ts lists the commands), and each command types its `run` by its input.
 */

export const autoLeaseRungs = ['off', 'advise', 'warn', 'refuse'] as const

export const claimInput = defineInput({
  arguments: {
    patterns: words('pattern', 'paths or globs, relative to the current directory', { required: true }),
  },
  options: {
    reason: text('-r, --reason <text>', 'why you need them (required; shown to whoever is kept out)'),
    ttl: duration('--ttl <duration>', 'how long the lease lasts: 30m, 2h, 1h30m, 1d (default 2h)'),
  },
})

export const releaseInput = defineInput({
  arguments: {
    patterns: words('pattern', 'the patterns to release, as claimed (default: all of yours)', {
      required: false,
    }),
  },
  options: {
    force: flag(
      '--force',
      "release another actor's lease on the named patterns (recorded, shown to the team)",
    ),
    reason: text('-r, --reason <text>', 'why you force it (required with --force)'),
  },
})

export const whoHasInput = defineInput({
  arguments: {
    path: argument('path', 'a file (relative to the current directory, or absolute) or a glob'),
  },
})

export const leasesInput = defineInput({
  options: {
    autoLease: choice(
      '--auto-lease <rung>',
      'how a collision with an auto-lease lands: off, advise, warn, refuse',
      autoLeaseRungs,
    ),
    autoLeaseTtl: duration(
      '--auto-lease-ttl <duration>',
      'how long an auto-lease lasts after the last edit (default 10m)',
    ),
    claimTtl: duration('--claim-ttl <duration>', 'how long a claim lasts without --ttl (default 2h)'),
    sessionEnd: choice('--session-end <what>', "what a session's leases do when it ends: release or keep", [
      'release',
      'keep',
    ]),
  },
})
