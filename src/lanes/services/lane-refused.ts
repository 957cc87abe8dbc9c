import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { LaneRefusal, LaneRefusalCode } from '../core/lane-refusal.ts'

/** A lane refusal as the one error type: code LANE_REFUSED, the refusal's own code, and what to do next. */
export function laneRefused(
  code: LaneRefusalCode,
  message: string,
  next: string,
): SangamError<LaneRefusalCode> {
  const refusal: LaneRefusal = { code, message, next }
  return new SangamError<LaneRefusalCode>(ErrorCode.LaneRefused, message, refusal, { wireCode: code, next })
}
