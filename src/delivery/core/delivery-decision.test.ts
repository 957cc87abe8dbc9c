import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import type { WakeOnTag } from '../../room/protocol/wake-on-tag.ts'
import {
  type DeliveryInput,
  type DeliveryPolicy,
  decideDelivery,
  type SessionFact,
  type TagFact,
} from './delivery-decision.ts'
import { deliveryPrompt } from './delivery-prompt.ts'

const now = 1_800_000_000_000
const policy: DeliveryPolicy = { wakeOnTag: 'direct', cooldownMs: 60_000, loopBudget: 4, staleMs: 86_400_000 }
const dormant: SessionFact = {
  vendor: 'claude',
  sessionId: 's-a',
  presence: 'offline',
  turnRunning: false,
  lastTurnAt: null,
  agentTurns: 0,
  wakeable: false,
  openElsewhere: null,
  tmuxPane: null,
  atQuestion: false,
}
const found = { found: true, queue: false, background: false }
const human = (id: string, extra: Partial<TagFact> = {}): TagFact => ({
  messageId: id,
  senderKind: 'human',
  fromSession: null,
  at: now - 1000,
  by: 'handle',
  ...extra,
})
const input = (extra: Partial<DeliveryInput> = {}): DeliveryInput => ({
  session: dormant,
  tags: [human('m1')],
  abilities: found,
  policy,
  mode: 'tag',
  promptFitsArgv: true,
  ...extra,
})

test('a dormant session tagged by a human is resumed, carrying every tag', () => {
  const decision = decideDelivery(input({ tags: [human('m1'), human('m2')] }), now)
  assert.deepEqual(decision.action, { kind: 'start', channel: 'resume' })
  assert.deepEqual(decision.carried, ['m1', 'm2'])
  assert.equal(decision.humanCause, true)
})

test("sangam's own messages and echoes are refused; the rest still go", () => {
  const decision = decideDelivery(
    input({
      tags: [
        human('own', { senderKind: 'sangam' }),
        human('echo', { senderKind: 'agent', fromSession: { vendor: 'claude', sessionId: 's-a' } }),
        human('ok'),
      ],
    }),
    now,
  )
  assert.deepEqual(decision.refused, [
    { messageId: 'own', reason: 'sangam-message' },
    { messageId: 'echo', reason: 'echo' },
  ])
  assert.deepEqual(decision.carried, ['ok'])
})

test('policy off wakes nobody; direct ignores #worktree tags; all takes them', () => {
  const off = decideDelivery(input({ policy: { ...policy, wakeOnTag: 'off' } }), now)
  assert.deepEqual(off.refused, [{ messageId: 'm1', reason: 'policy-off' }])
  assert.deepEqual(off.action, { kind: 'none' })
  const tag = human('w', { by: 'worktree' })
  assert.deepEqual(decideDelivery(input({ tags: [tag] }), now).refused, [
    { messageId: 'w', reason: 'policy-direct' },
  ])
  const all = decideDelivery(input({ tags: [tag], policy: { ...policy, wakeOnTag: 'all' } }), now)
  assert.deepEqual(all.carried, ['w'])
})

test('send skips the policy but not the echo guard', () => {
  const decision = decideDelivery(input({ mode: 'send', policy: { ...policy, wakeOnTag: 'off' } }), now)
  assert.deepEqual(decision.action, { kind: 'start', channel: 'resume' })
})

test('a running turn or an online session waits for the hand-over; a recent turn waits for the cooldown', () => {
  assert.deepEqual(decideDelivery(input({ session: { ...dormant, turnRunning: true } }), now).action, {
    kind: 'wait',
    reason: 'turn-running',
    channel: 'hand-over',
  })
  assert.deepEqual(
    decideDelivery(input({ session: { ...dormant, presence: 'online' } }), now).action.kind,
    'wait',
  )
  const cooling = decideDelivery(input({ session: { ...dormant, lastTurnAt: now - 59_999 } }), now)
  assert.deepEqual(cooling.action, { kind: 'wait', reason: 'cooldown', channel: 'resume' })
  const cooled = decideDelivery(input({ session: { ...dormant, lastTurnAt: now - 60_000 } }), now)
  assert.deepEqual(cooled.action, { kind: 'start', channel: 'resume' })
})

test('a session open in a terminal is never resumed: next prompt, its tmux pane, or refused for send', () => {
  const open: SessionFact = { ...dormant, presence: 'idle' }
  assert.deepEqual(decideDelivery(input({ session: open }), now).action, {
    kind: 'wait',
    reason: 'next-prompt',
    channel: 'next-prompt',
  })
  assert.deepEqual(decideDelivery(input({ session: { ...open, tmuxPane: '%3' } }), now).action, {
    kind: 'paste',
    pane: '%3',
  })
  assert.deepEqual(decideDelivery(input({ session: open, mode: 'send' }), now).action, {
    kind: 'refuse',
    reason: 'active-elsewhere',
  })
  // Claude Code says it is not open: it is dormant after all.
  assert.deepEqual(decideDelivery(input({ session: { ...open, openElsewhere: false } }), now).action, {
    kind: 'start',
    channel: 'resume',
  })
  // A live endpoint wakes it in place.
  assert.deepEqual(
    decideDelivery(input({ session: { ...open, vendor: 'codex', wakeable: true } }), now).action,
    {
      kind: 'start',
      channel: 'wake',
    },
  )
  // Waking needs no vendor CLI: it is decided without its abilities (the router does not look it
  // up), under the same guards; without them, no other channel is taken for a CLI that exists.
  const live = { ...open, wakeable: true }
  assert.deepEqual(decideDelivery(input({ session: live, abilities: null }), now).action, {
    kind: 'start',
    channel: 'wake',
  })
  assert.deepEqual(
    decideDelivery(input({ session: { ...live, lastTurnAt: now - 100 }, abilities: null }), now).action,
    { kind: 'wait', reason: 'cooldown', channel: 'wake' },
  )
  assert.deepEqual(decideDelivery(input({ session: dormant, abilities: null }), now).action, {
    kind: 'fail',
    reason: 'vendor-cli-missing',
  })
})

test('a session waiting at a question for a person is neither restarted nor resumed: its Stop hands the tags over', () => {
  const waiting: SessionFact = { ...dormant, presence: 'idle', openElsewhere: false, atQuestion: true }
  const background = { found: true, queue: false, background: true }
  for (const mode of ['tag', 'send'] as const)
    assert.deepEqual(decideDelivery(input({ session: waiting, abilities: background, mode }), now).action, {
      kind: 'wait',
      reason: 'at-question',
      channel: 'hand-over',
    })
  // Its hooks said a turn runs (the prompt was submitted before the question): still at-question.
  assert.deepEqual(decideDelivery(input({ session: { ...waiting, presence: 'online' } }), now).action, {
    kind: 'wait',
    reason: 'at-question',
    channel: 'hand-over',
  })
  // Guards still come first: a tag the policy refuses is refused, not kept waiting.
  const off = decideDelivery(input({ session: waiting, policy: { ...policy, wakeOnTag: 'off' } }), now)
  assert.equal(off.action.kind, 'none')
  // Answered (no longer listed blocked): the background channel again.
  assert.deepEqual(
    decideDelivery(input({ session: { ...waiting, atQuestion: false }, abilities: background }), now).action,
    { kind: 'start', channel: 'background' },
  )
})

test("the vendor's own channels are preferred when offered; a missing CLI fails", () => {
  const codex = { ...dormant, vendor: 'codex' as const }
  assert.deepEqual(
    decideDelivery(input({ session: codex, abilities: { found: true, queue: true, background: false } }), now)
      .action,
    { kind: 'start', channel: 'queue' },
  )
  assert.deepEqual(
    decideDelivery(input({ abilities: { found: true, queue: false, background: true } }), now).action,
    { kind: 'start', channel: 'background' },
  )
  assert.deepEqual(
    decideDelivery(
      input({ abilities: { found: true, queue: false, background: true }, promptFitsArgv: false }),
      now,
    ).action,
    { kind: 'start', channel: 'resume' },
  )
  assert.deepEqual(
    decideDelivery(input({ abilities: { found: false, queue: false, background: false } }), now).action,
    {
      kind: 'fail',
      reason: 'vendor-cli-missing',
    },
  )
})

test('an unknown session and a stale tag are refused', () => {
  assert.deepEqual(decideDelivery(input({ session: { ...dormant, presence: null } }), now).refused, [
    { messageId: 'm1', reason: 'unknown-session' },
  ])
  assert.deepEqual(decideDelivery(input({ tags: [human('old', { at: now - 86_400_001 })] }), now).refused, [
    { messageId: 'old', reason: 'stale' },
  ])
})

test('the loop budget refuses agents past it, until a human reaches the session', () => {
  const agent = human('a', { senderKind: 'agent', fromSession: { vendor: 'codex', sessionId: 'b' } })
  const spent = { ...dormant, agentTurns: 4 }
  assert.deepEqual(decideDelivery(input({ session: spent, tags: [agent] }), now).refused, [
    { messageId: 'a', reason: 'loop-budget' },
  ])
  const withHuman = decideDelivery(input({ session: spent, tags: [agent, human('h')] }), now)
  assert.deepEqual(withHuman.carried, ['a', 'h'])
})

test("a tag nobody could tell the author of, and a person's post reaching the session only through its thread, count against the budget", () => {
  const spent = { ...dormant, agentTurns: 4 }
  const unknown = human('u', { senderKind: 'unknown' })
  const viaThread = human('t', { by: 'thread' })
  const all = { ...policy, wakeOnTag: 'all' as const }
  assert.deepEqual(
    decideDelivery(input({ session: spent, tags: [unknown, viaThread], policy: all }), now).refused,
    [
      { messageId: 'u', reason: 'loop-budget' },
      { messageId: 't', reason: 'loop-budget' },
    ],
  )
  // Within the budget they go, and the turn they start is an agent-caused one: nothing resets.
  const fresh = decideDelivery(input({ tags: [unknown, viaThread], policy: all }), now)
  assert.deepEqual(fresh.carried, ['u', 't'])
  assert.equal(fresh.humanCause, false)
  // A person's tag naming the session carries them along and resets the count.
  const named = decideDelivery(
    input({ session: spent, tags: [unknown, viaThread, human('h')], policy: all }),
    now,
  )
  assert.deepEqual(named.carried, ['u', 't', 'h'])
  assert.equal(named.humanCause, true)
})

test("a thread's routing to its participants starts a turn only under wake-on-tag all, like a #worktree tag", () => {
  const viaThread = human('t', { by: 'thread' })
  assert.deepEqual(decideDelivery(input({ tags: [viaThread] }), now).refused, [
    { messageId: 't', reason: 'policy-direct' },
  ])
  assert.deepEqual(
    decideDelivery(input({ tags: [viaThread], policy: { ...policy, wakeOnTag: 'all' } }), now).carried,
    ['t'],
  )
})

test('the prompt says who tagged, the message, and to re-observe the repository', () => {
  const text = deliveryPrompt(
    [{ id: 'msg-1', sender: 'asha', at: now, text: 'please rebase', fromAgent: false, threadId: null }],
    'tag',
  )
  assert.match(text, /tagged in the sangam room by asha/)
  assert.match(text, /msg-1/)
  assert.match(text, /please rebase/)
  assert.match(text, /re-observe the repository/)
  assert.match(text, /--to @human/)
  const inThread = deliveryPrompt(
    [{ id: 'msg-2', sender: 'asha', at: now, text: 'over to you', fromAgent: false, threadId: 'thr-1' }],
    'tag',
  )
  assert.match(inThread, /in thread thr-1 \(msg-2\)/)
  assert.match(inThread, /sangam post --thread thr-1 …/, 'answered in its thread')
})

/**
 * Two agents A and B tag each other back at the end of every turn they get. A human starts it by
 * tagging A. The daemon looks every `tick` ms and decides with `decideDelivery`; a turn lasts
 * `turnMs`. Under any policy, cooldown, budget and timing, the number of turns stays within the
 * loop budget: at most `loopBudget` agent-caused turns per session, plus the human's one. Whatever
 * the replies are: an agent's, one whose author nobody could tell, or one reaching the other only
 * through a thread both take part in (even a person's post, routed so).
 */
test('two agents tagging each other back and forth stop within the budget, under any policy', () => {
  fc.assert(
    fc.property(
      fc.constantFrom<WakeOnTag>('off', 'direct', 'all'),
      fc.integer({ min: 1, max: 120_000 }),
      fc.integer({ min: 0, max: 6 }),
      fc.integer({ min: 1, max: 90_000 }),
      fc.integer({ min: 100, max: 30_000 }),
      fc.constantFrom<TagFact['by']>('handle', 'worktree', 'thread'),
      fc.constantFrom<TagFact['senderKind']>('agent', 'unknown', 'human'),
      (wakeOnTag, cooldownMs, loopBudget, turnMs, tick, replyBy, replyKind) => {
        // A person's post reaches the other agent only through a thread (a tag naming it resets).
        const by = replyKind === 'human' ? 'thread' : replyBy
        const rules: DeliveryPolicy = { wakeOnTag, cooldownMs, loopBudget, staleMs: 86_400_000 }
        type Sim = {
          id: 'A' | 'B'
          pending: TagFact[]
          runningUntil: number
          lastTurnAt: number | null
          agentTurns: number
          turns: number
        }
        const sessions: Record<'A' | 'B', Sim> = {
          A: { id: 'A', pending: [], runningUntil: -1, lastTurnAt: null, agentTurns: 0, turns: 0 },
          B: { id: 'B', pending: [], runningUntil: -1, lastTurnAt: null, agentTurns: 0, turns: 0 },
        }
        let seq = 0
        const start = 0
        sessions.A.pending.push({
          messageId: `m${seq++}`,
          senderKind: 'human',
          fromSession: null,
          at: start,
          by: 'handle',
        })
        const ends: { at: number; who: 'A' | 'B' }[] = []
        for (let t = start; t < start + 3_600_000 * 6; t += tick) {
          for (const end of ends.filter((e) => e.at <= t)) {
            // At the end of its turn each agent tags the other back.
            const other = end.who === 'A' ? 'B' : 'A'
            sessions[other].pending.push({
              messageId: `m${seq++}`,
              senderKind: replyKind,
              fromSession: replyKind === 'agent' ? { vendor: 'claude', sessionId: end.who } : null,
              at: end.at,
              by,
            })
          }
          for (let i = ends.length - 1; i >= 0; i--)
            if ((ends[i] as { at: number }).at <= t) ends.splice(i, 1)
          for (const sim of Object.values(sessions)) {
            if (sim.pending.length === 0) continue
            const decision = decideDelivery(
              {
                session: {
                  ...dormant,
                  sessionId: sim.id,
                  turnRunning: sim.runningUntil > t,
                  lastTurnAt: sim.lastTurnAt,
                  agentTurns: sim.agentTurns,
                },
                tags: sim.pending,
                abilities: found,
                policy: rules,
                mode: 'tag',
                promptFitsArgv: true,
              },
              t,
            )
            if (decision.action.kind === 'wait') continue
            sim.pending = []
            if (decision.action.kind !== 'start') continue
            sim.turns += 1
            sim.lastTurnAt = t
            sim.runningUntil = t + turnMs
            sim.agentTurns = decision.humanCause ? 0 : sim.agentTurns + 1
            ends.push({ at: t + turnMs, who: sim.id })
          }
          if (ends.length === 0 && sessions.A.pending.length === 0 && sessions.B.pending.length === 0) break
        }
        const total = sessions.A.turns + sessions.B.turns
        if (wakeOnTag === 'off') return total === 0
        if (by !== 'handle' && wakeOnTag === 'direct') return total <= 1
        return total <= 2 * loopBudget + 1 && ends.length === 0
      },
    ),
    { numRuns: 300 },
  )
})
