import assert from 'node:assert/strict'
import { test } from 'node:test'
import { type AlertFacts, alertId, deriveAlerts, severityOf } from './alerts.ts'

const now = 1_800_000_000_000
const base: AlertFacts = {
  rungs: {
    'one-actor-per-worktree': 'warn',
    'file-overlap': 'refuse',
    'stale-worktrees': 'advise',
    'lease-collision': 'warn',
  },
  staleDays: 30,
  sessions: [
    {
      vendor: 'claude',
      sessionId: 'c1',
      handle: 'claude-lane',
      worktree: '/w/lane',
      state: 'online',
      updatedAt: now - 1000,
    },
    {
      vendor: 'codex',
      sessionId: 'x1',
      handle: 'codex-lane',
      worktree: '/w/lane',
      state: 'idle',
      updatedAt: now - 60_000,
    },
    // Idle for an hour: no longer holds the worktree. Offline and humans never count.
    {
      vendor: 'codex',
      sessionId: 'x2',
      handle: 'codex-old',
      worktree: '/w/lane',
      state: 'idle',
      updatedAt: now - 3_600_000,
    },
    {
      vendor: 'claude',
      sessionId: 'c2',
      handle: 'claude-gone',
      worktree: '/w/lane',
      state: 'offline',
      updatedAt: now,
    },
    {
      vendor: 'human',
      sessionId: 'h1',
      handle: 'asha',
      worktree: '/w/lane',
      state: 'online',
      updatedAt: now,
    },
  ],
  worktrees: [
    { path: '/w/lane', target: 'lane', activeAgents: 2, ageDays: 0, missing: false },
    { path: '/w/api', target: 'api', activeAgents: 0, ageDays: 1, missing: false },
    { path: '/w/old', target: 'old', activeAgents: 0, ageDays: 45, missing: false },
    { path: '/w/gone', target: 'gone', activeAgents: 0, ageDays: null, missing: true },
  ],
  overlaps: [
    { worktree: '/w/lane', path: 'src/a.ts', otherWorktree: '/w/api', conflicted: false },
    { worktree: '/w/api', path: 'src/a.ts', otherWorktree: '/w/lane', conflicted: true },
    { worktree: '/w/api', path: 'src/b.ts', otherWorktree: '/w/lane', conflicted: false },
  ],
  threads: [
    {
      id: 'thr-1',
      title: 'which schema?',
      reason: null,
      audience: 'human-loop',
      status: 'open',
      participants: ['@claude-lane', '@human'],
      paths: ['db.sql'],
    },
    {
      id: 'thr-2',
      title: 'API down',
      reason: 'blocked on the staging API',
      audience: 'agents',
      status: 'open',
      participants: ['@codex-lane'],
      paths: [],
    },
    {
      id: 'thr-3',
      title: 'chit-chat',
      reason: null,
      audience: 'agents',
      status: 'open',
      participants: [],
      paths: [],
    },
    {
      id: 'thr-4',
      title: 'done one',
      reason: null,
      audience: 'human-loop',
      status: 'closed',
      participants: [],
      paths: [],
    },
  ],
  handoffs: [
    {
      messageId: 'msg-1',
      sender: 'claude-lane',
      threadId: null,
      paths: ['src/a.ts'],
      blocker: null,
      nextOwner: '@codex-lane',
      recipients: ['@codex-lane', '@human'],
      text: 'the parser rewrite: tests pass\n\nHandoff:\n- source: abc',
    },
    {
      messageId: 'msg-2',
      sender: 'codex-lane',
      threadId: null,
      paths: [],
      blocker: 'needs a key',
      nextOwner: null,
      recipients: [],
      text: 'Handoff:\n- source: none',
    },
  ],
  collisions: [{ pattern: 'src/c.ts', holder: 'bob', editor: 'asha' }],
}

test('every condition becomes one alert at its severity, most severe first', () => {
  const alerts = deriveAlerts(base, now)
  assert.deepEqual(
    alerts.map((alert) => [alert.severity, alert.type, alert.title]),
    [
      [
        'critical',
        'blocker',
        "@codex-lane's handoff to the room (no next owner named) is blocked: needs a key",
      ],
      ['critical', 'blocker', 'blocked: API down'],
      ['critical', 'file-overlap', '#api and #lane both change 2 paths and would conflict'],
      ['attention', 'decision-needed', 'decision needed: which schema?'],
      [
        'attention',
        'handoff',
        '@claude-lane handed off to @codex-lane, @human: the parser rewrite: tests pass',
      ],
      ['attention', 'lease-collision', "asha edited src/c.ts under bob's lease"],
      ['attention', 'one-actor-per-worktree', '2 agents active in #lane: @claude-lane, @codex-lane'],
      ['warning', 'stale-worktrees', '#old has no active agent and no commit for 45 days'],
    ],
  )
  const overlap = alerts.find((alert) => alert.type === 'file-overlap')
  assert.deepEqual(overlap?.paths, ['src/a.ts', 'src/b.ts'])
  assert.deepEqual(overlap?.participants, ['#api', '#lane'])
  assert.equal(alerts.find((alert) => alert.type === 'decision-needed')?.threadId, 'thr-1')
})

test('ids are stable: the same condition gives the same id, another condition another', () => {
  const first = deriveAlerts(base, now).map((alert) => alert.id)
  const reordered = deriveAlerts(
    { ...base, sessions: [...base.sessions].reverse(), overlaps: [...base.overlaps].reverse() },
    now + 5000,
  ).map((alert) => alert.id)
  assert.deepEqual([...reordered].sort(), [...first].sort())
  assert.equal(new Set(first).size, first.length)
  assert.match(alertId('file-overlap', ['/w/a', '/w/b']), /^file-overlap-[0-9a-f]{16}$/)
  assert.notEqual(alertId('file-overlap', ['/w/a', '/w/b']), alertId('file-overlap', ['/w/a', '/w/c']))
})

test('a rule at off raises nothing; its rung sets the severity', () => {
  const quiet = deriveAlerts(
    {
      ...base,
      rungs: {
        'one-actor-per-worktree': 'off',
        'file-overlap': 'off',
        'stale-worktrees': 'off',
        'lease-collision': 'off',
      },
    },
    now,
  )
  assert.deepEqual([...new Set(quiet.map((alert) => alert.type))].sort(), [
    'blocker',
    'decision-needed',
    'handoff',
  ])
  assert.deepEqual((['off', 'advise', 'warn', 'refuse'] as const).map(severityOf), [
    null,
    'warning',
    'attention',
    'critical',
  ])
  const stale = deriveAlerts({ ...base, staleDays: 60 }, now)
  assert.equal(
    stale.some((alert) => alert.type === 'stale-worktrees'),
    false,
  )
})

test("an overlap with another machine's worktree names it by its #target", () => {
  const alerts = deriveAlerts(
    {
      ...base,
      worktrees: [
        ...base.worktrees,
        { path: '/home/bob/w', target: 'bob-w', machine: 'm_b', activeAgents: 0, ageDays: 0, missing: false },
      ],
      overlaps: [
        { worktree: '/w/lane', path: 'src/a.ts', otherWorktree: 'm_b:/home/bob/w', conflicted: true },
      ],
    },
    now,
  )
  const overlap = alerts.find((alert) => alert.type === 'file-overlap')
  assert.deepEqual(overlap?.participants, ['#lane', '#bob-w'])
})
