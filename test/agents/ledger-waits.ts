import type { DeliveriesJson } from '../helpers/deliveries-json.ts'
import type { AgentLab } from './agent-lab.ts'
import { until } from './lab-daemon.ts'

type Turn = DeliveriesJson['turns'][number]

export interface LedgerWait {
  /** How long before it is a hang (not a timing claim): 60 s unless said. */
  readonly timeoutMs?: number
  /** What a failure prints; the ledger and the hooks' heartbeats unless said. */
  readonly context?: () => Promise<string>
}

/**
 * The delivery scenarios wait on the ledger (`sangam deliveries --json`), never on time: the
 * daemon delivers in its own rounds, and a real CLI's turn takes as long as it takes.
 */
export function ledgerWhen(
  lab: AgentLab,
  what: string,
  ready: (ledger: DeliveriesJson) => boolean,
  wait: LedgerWait = {},
): Promise<DeliveriesJson> {
  return pollLedger(lab, what, [], (ledger) => (ready(ledger) ? ledger : null), wait)
}

/** At least one turn started, and every one has ended. */
export function turnsEnded(ledger: DeliveriesJson): boolean {
  return ledger.turns.length > 0 && ledger.turns.every((turn) => turn.state === 'ended')
}

/**
 * The first turn `matches` picks once it is past starting and running. It asks with `--deliver`,
 * which looks as the daemon does, so a turn whose process has ended is recorded so even when no
 * daemon runs (`sangam start`, a lane's task).
 */
export function settledTurn(
  lab: AgentLab,
  what: string,
  matches: (turn: Turn) => boolean,
  wait: LedgerWait = {},
): Promise<Turn> {
  const settled = (ledger: DeliveriesJson): Turn | null => {
    const turn = ledger.turns.find(matches)
    return turn !== undefined && turn.state !== 'starting' && turn.state !== 'running' ? turn : null
  }
  return pollLedger(lab, what, ['--deliver'], settled, wait)
}

function pollLedger<T>(
  lab: AgentLab,
  what: string,
  flags: readonly string[],
  pick: (ledger: DeliveriesJson) => T | null,
  wait: LedgerWait,
): Promise<T> {
  return until(
    what,
    async () => pick(await lab.sangamJson<DeliveriesJson>(['deliveries', ...flags])),
    wait.timeoutMs ?? 60_000,
    wait.context ?? (() => ledgerContext(lab)),
  )
}

/** What a delivery scenario's failure prints unless it says more: the ledger and the hooks' heartbeats. */
export async function ledgerContext(lab: AgentLab): Promise<string> {
  return `ledger:\n${(await lab.sangam(['deliveries', '--json'])).stdout}\nheartbeats:\n${lab.heartbeats()}`
}
