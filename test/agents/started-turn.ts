import assert from 'node:assert/strict'
import type { DeliveriesJson } from '../helpers/deliveries-json.ts'
import type { AgentLab } from './agent-lab.ts'
import { ledgerContext, settledTurn } from './ledger-waits.ts'

interface StartJson {
  turn: { id: number; sessionId: string; channel: string; vendor: string }
}

/**
 * `sangam start --vendor <vendor> <prompt>` in the lab: a new headless session of the real CLI.
 * `start` does not wait for its turn, so this does, through the ledger, and asserts that it was a
 * new session's turn and that it ended well. `started` is what `start` answered (the id sangam
 * picked, where it picks one); `turn` the ledger's row once ended.
 */
export async function startedTurnEnded(
  lab: AgentLab,
  vendor: string,
  prompt: string,
): Promise<{ started: StartJson['turn']; turn: DeliveriesJson['turns'][number] }> {
  const { turn: started } = await lab.sangamJson<StartJson>(['start', '--vendor', vendor, prompt])
  assert.deepEqual([started.vendor, started.channel], [vendor, 'new'])
  const turn = await settledTurn(lab, 'the started turn ending', (each) => each.id === started.id, {
    timeoutMs: 90_000,
  })
  // Its exit code is known only to a waiter that outlived it (`start` does not wait; a daemon would).
  assert.equal(turn.state, 'ended', await ledgerContext(lab))
  return { started, turn }
}
