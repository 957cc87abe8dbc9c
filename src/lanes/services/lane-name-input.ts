import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import { checkLaneName } from '../core/lane-name.ts'

/**
 * A lane name as a caller typed it, checked before it becomes a path or a branch (`../x` never
 * reaches the disk). Checked here, not in the command's input: `--help` loads no core module.
 */
export function laneNameInput(text: string): string {
  const checked = checkLaneName(text)
  if (!checked.ok) throw new SangamError(ErrorCode.Usage, checked.problem)
  return checked.value
}
