import type { DaemonStatus } from '../../../daemon/up-daemon.ts'
import { outsideText } from '../../../lanes/core/main-record.ts'
import { formatByteSize } from '../../../shared/byte-size.ts'

/**
 * What `sangam up` prints for a person: what they should know or act on (the daemon started and
 * caught up, the team server is unreachable, refused this replica or is full, it is back, a
 * delivery started a turn, an overlap changed, something could not be captured). The rest (every
 * capture, every push and record received, a connection dropped and made again at once) is
 * `debug`: a daemon that talks all day is a daemon nobody reads. `--json` prints every status.
 */
export class DaemonStatusLines {
  /** The person was told the server is unreachable (or refused us) and not yet that it is back. */
  #saidOffline = false
  /** The person was told the project is at its storage budget and not yet that pushes go again. */
  #saidQuota = false
  #connectedBefore = false

  /** The line to print, or null for a status that is only for the debug log (`describe` has its text). */
  line(status: DaemonStatus): string | null {
    switch (status.type) {
      case 'captured':
      case 'reset':
      case 'moved':
      case 'sync-applied':
        return null
      case 'sync-connected': {
        const first = !this.#connectedBefore
        const back = this.#saidOffline
        this.#connectedBefore = true
        this.#saidOffline = false
        if (!first && !back) return null
        return first ? describe(status) : `team server ${status.url}: connected again`
      }
      case 'sync-offline':
        // A working connection that dropped is made again in a moment: only a failed attempt is news.
        if (this.#saidOffline || status.failures === 0) return null
        this.#saidOffline = true
        return `team server ${status.url} unreachable (${status.message}); working offline and trying again (a line says when it is back)`
      case 'sync-refused':
        this.#saidOffline = true
        return describe(status)
      case 'sync-quota':
        if (this.#saidQuota) return null
        this.#saidQuota = true
        return describe(status)
      case 'sync-pushed':
        if (!this.#saidQuota) return null
        this.#saidQuota = false
        return 'the team server takes this project’s records again: the outbox is being shared'
      default:
        return describe(status)
    }
  }
}

/** Every status in words: the printed line, or the debug log's. */
export function describe(status: DaemonStatus): string {
  switch (status.type) {
    case 'started':
      return `sangam up: project ${status.projectId} (${status.root}), pid ${status.pid}, capturing since ${status.since}`
    case 'watching':
      return `watching ${status.root}`
    case 'ready':
      return `caught up: ${status.files} transcript file(s), ${status.inserted} new event(s) in ${(status.durationMs / 1000).toFixed(1)} s; tailing (Ctrl-C stops)`
    case 'captured':
      return `captured ${status.inserted} event(s) from ${status.path}`
    case 'reset':
      return `${status.path} was rewritten; read again from the start`
    case 'moved':
      return `${status.from} moved to ${status.to}`
    case 'error':
      return `could not capture ${status.path ?? 'transcripts'} (will retry): ${status.message}`
    case 'sync-connected':
      return `team server ${status.url}: connected (${status.cursor} of ${status.headGseq} records applied)`
    case 'sync-pushed':
      return `shared ${status.records} record(s) with the team`
    case 'sync-applied':
      return `received ${status.records} record(s) from the team (${status.events} new event(s))`
    case 'sync-offline':
      return `team server ${status.url} unreachable (${status.message}); working offline, trying again in ${(status.retryInMs / 1000).toFixed(1)} s`
    case 'sync-refused':
      return `team server ${status.url} refused this replica: ${status.message}`
    case 'sync-quota': {
      const used =
        status.usedBytes === null || status.limitBytes === null
          ? ''
          : ` (${formatByteSize(status.usedBytes)} of ${formatByteSize(status.limitBytes)})`
      return `team server ${status.url}: this project is at its storage budget${used}; nothing is lost: what this machine captures waits in its outbox and is shared once the server's operator raises the budget (MAX_PROJECT_BYTES, sangam serve --max-project-size). Records from the team still arrive`
    }
    case 'overlap':
      return `overlap with ${status.target}: ${status.conflicted} conflicted of ${status.rows} shared path row(s) across ${status.lanes} worktree(s); conflict threads opened ${status.opened.length}, closed ${status.closed.length}`
    case 'delivery':
      return status.outcome === 'started'
        ? `delivery: turn ${status.turn} started in ${status.vendor} session ${status.sessionId} (${status.channel}, ${status.messages} message(s))`
        : `delivery: ${status.vendor} session ${status.sessionId}: ${status.outcome}`
    case 'hook-work':
      return `hooks' kept work: ${status.done} done, ${status.dropped} no longer needed, ${status.conflicts} met another lease (its session is told), ${status.waiting} still waiting`
    case 'main-outside':
      return `warning: ${outsideText(status)}`
    case 'stopped':
      return 'stopped'
  }
}
