import type { Alert } from './alerts.ts'

/**
 * The house rules' part of an agent's context: the conditions the team set to `warn` or `refuse`
 * that this session has not been told of, most severe first, in at most `budget` characters.
 * Those that do not fit are not marked shown, so they come with the next prompt.
 */
export interface AlertContext {
  /** Empty when there is nothing to say. */
  readonly text: string
  /** The ids of the alerts in `text`. */
  readonly shown: readonly string[]
}

const header = (count: number): string =>
  `sangam house rules: ${count} condition${count === 1 ? '' : 's'} the team set to warn or refuse (\`sangam alerts\` lists every one):`

export function alertContext(alerts: readonly Alert[], budget: number): AlertContext {
  if (alerts.length === 0) return { text: '', shown: [] }
  const lines: string[] = []
  const shown: string[] = []
  for (const alert of alerts) {
    const line = alertLine(alert)
    const next = [header(shown.length + 1), ...lines, line].join('\n')
    if (next.length > budget) break
    lines.push(line)
    shown.push(alert.id)
  }
  if (shown.length === 0) return { text: '', shown: [] }
  return { text: [header(shown.length), ...lines].join('\n'), shown }
}

function alertLine(alert: Alert): string {
  const loudness = alert.severity === 'critical' ? 'refused' : 'warned'
  const paths =
    alert.paths.length === 0
      ? ''
      : ` (${alert.paths.slice(0, 3).join(', ')}${alert.paths.length > 3 ? ', …' : ''})`
  return `- ${alert.type} [${loudness}]: ${alert.title}${paths}`
}
