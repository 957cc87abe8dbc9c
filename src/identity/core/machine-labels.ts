/**
 * What every view calls a machine: its readable name, and when two machines of the team share one
 * (two data dirs on one host, two laptops both called `mac`), the name with the first four hex of
 * each one's id (`mac~3e9f`), so they stay apart and every replica labels them alike. A machine
 * whose name has not arrived yet shows its id.
 */
export interface MachineName {
  readonly id: string
  readonly name: string
}

/** What the views call machines: every machine the replica knows, this one by its current name. */
export interface MachineNames {
  /** This machine's id ('' when the caller did not say). */
  readonly here: string
  /** The machine's readable label; its id when its name has not arrived; `-` for none. */
  label(id: string | null): string
}

export function machineLabels(machines: readonly MachineName[]): Map<string, string> {
  const holders = new Map<string, number>()
  for (const machine of machines) holders.set(machine.name, (holders.get(machine.name) ?? 0) + 1)
  const labels = new Map<string, string>()
  for (const machine of machines) {
    const shared = (holders.get(machine.name) ?? 0) > 1
    labels.set(machine.id, shared ? `${machine.name}~${shortId(machine.id)}` : machine.name)
  }
  return labels
}

function shortId(id: string): string {
  return id.replace(/^m_/, '').slice(0, 4)
}
