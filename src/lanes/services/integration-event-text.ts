import { oneLine } from '../../shared/terminal-text.ts'
import { formatTime } from '../../shared/time-text.ts'
import type { IntegrationEvent } from '../store/integration-event-table.ts'

/**
 * One integration event as `sangam log` prints it: when (UTC, as every command shows times), which
 * lane, and what happened in words, never the stored JSON (D293). `--json` keeps the event whole.
 * `14:05 UTC  bob on bob-laptop: published directly: main is now 1a2b3c4d5e6f`
 */
export function describeIntegrationEvent(event: IntegrationEvent, now: number, machine?: string): string {
  // Lane names are per machine: with the machine's name, `bob on bob-laptop: …` (D341).
  const where = [event.lane, machine === undefined ? null : `on ${machine}`]
    .filter((part): part is string => part !== null)
    .map(oneLine)
    .join(' ')
  return `${formatTime(event.at, now)}  ${where === '' ? '' : `${where}: `}${describeWhat(event.type, event.payload)}`
}

function describeWhat(type: string, payload: Readonly<Record<string, unknown>>): string {
  const field = (key: string): string => textOf(payload[key])
  const main = sha(field('main'))
  const refs = field('backupRefs')
  const saved = refs === '' ? '' : `; its work is saved under ${refs}`
  switch (type) {
    case 'sync.already-synced':
      return `already synced with main ${main}`
    case 'sync.caught-up':
      return `caught up to main ${main}`
    case 'sync.no-changes':
      return `nothing to publish; main is ${main}`
    case 'sync.published-direct':
      return `published directly: main is now ${main}`
    case 'sync.published-merge':
      return `published with a git merge: main is now ${main}`
    case 'sync.task-started':
      return `started semantic merge task ${field('task')}; main stays ${main}`
    case 'sync.published-task':
      return `published its task ${field('task')}: main is now ${main}`
    case 'task.started':
      return `task ${field('task')} handed over (${field('channel')})`
    case 'merge.fallback':
      return `a git merge could not publish (${field('reason')}): semantic task ${field('task')}`
    case 'check.ran':
      return `the check \`${field('command')}\` ${payload.ok === true ? 'passed' : `failed (exit ${field('exitCode') || 'by a signal'})`}`
    case 'lock.taken-over':
      return `took the integration lock over from lane ${field('from')} (${field('fromOwner')}); ${field('by')} gave the reason "${field('reason')}"${saved}`
    case 'lock.released':
      return `the integration lock was released (${field('reason')})`
    case 'integration.normalised':
      return `an interrupted integration was put right: ${field('action')}${saved}`
    case 'lane.created':
    case 'lane.entered': {
      const agent = field('agent')
      return `lane ${type === 'lane.created' ? 'created' : 'entered'} at ${field('worktree')} (${agent === '' ? 'no agent' : `agent ${agent}`})`
    }
    case 'lane.deleted':
      return `lane deleted; manifest ${field('manifest')}${saved}`
    default: {
      // A type this build has no words for (a newer sangam wrote it): its fields, still as text.
      const fields = Object.entries(payload)
        .map(([key, value]) => `${oneLine(key)} ${textOf(value) || '-'}`)
        .join(', ')
      return `${oneLine(type)}${fields === '' ? '' : ` (${fields})`}`
    }
  }
}

/** A payload value as words: strings as they are (on one line), numbers, lists joined. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return oneLine(value)
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value))
    return value
      .map(textOf)
      .filter((each) => each !== '')
      .join(', ')
  if (value !== null && typeof value === 'object')
    return Object.entries(value)
      .map(([key, each]) => `${oneLine(key)} ${textOf(each)}`)
      .join(', ')
  return ''
}

function sha(value: string): string {
  return /^[0-9a-f]{40,64}$/.test(value) ? value.slice(0, 12) : value
}
