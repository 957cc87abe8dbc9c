import { loadMachineId } from '../../config/machine-id.ts'
import type { Random } from '../../shared/random.ts'
import type { MachineName } from '../core/machine-labels.ts'
import { loadMachineName } from './machine-name-file.ts'

/** This machine: its id (one per data dir) and its readable name (set, else the hostname). */
export function thisMachine(sangamHome: string, random?: Random): MachineName {
  return { id: loadMachineId(sangamHome, random), name: loadMachineName(sangamHome) }
}
