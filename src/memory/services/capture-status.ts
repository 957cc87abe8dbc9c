import { runningDaemon } from '../../config/daemon-discovery.ts'
import { daemonFileBeside } from '../../config/data-paths.ts'
import type { BriefSection } from '../core/brief-assembly.ts'
import { describeAge } from '../core/brief-lines.ts'
import { lastCaptureAt } from '../store/source-file-table.ts'
import type { BriefContext } from './brief-section-source.ts'

/**
 * A warning, first in the brief, when no `sangam up` runs for the project on this machine: the
 * memory then stops at the last capture, and an agent (or its human) searching it would otherwise
 * take silence for "nothing happened". Absent while the daemon runs.
 */
export function captureStatus({ db, now }: BriefContext): readonly BriefSection[] {
  if (runningDaemon(daemonFileBeside(db.name)) !== null) return []
  const last = lastCaptureAt(db)
  return [
    {
      key: 'capture',
      title: 'Capture',
      lines: [
        last === null
          ? '`sangam up` is not running here and nothing has been captured yet: run it (or `sangam index` once)'
          : `\`sangam up\` is not running here: this memory stops at the last capture, ${describeAge(last, now)}`,
      ],
      total: 1,
      empty: '',
    },
  ]
}
