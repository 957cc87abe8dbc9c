import { type CommitList, commitsBetween, commitsSince, recentCommits } from '../../git/commit-log.ts'
import { defaultWindowDays } from '../../shared/time-window.ts'
import type { BriefSection } from '../core/brief-assembly.ts'
import { commitLine, describeAge, noteLine, sessionLine } from '../core/brief-lines.ts'
import { listNotesAfter } from '../store/note-events.ts'
import { localSessionsSince } from '../store/session-activity.ts'
import { countActiveSessions } from '../store/session-table.ts'
import type { BriefContext, BriefSectionSource } from './brief-section-source.ts'

const activeWindowMs = 24 * 60 * 60 * 1000
/** Each source hands over at most this many lines; the budget shows fewer. */
const sourceLines = 30
const firstBriefCommits = 5

/**
 * This machine's agent sessions with events since the reader's last brief (a first brief: the last
 * 24 h), most recent first, each with its count of new events and its last prompt. Teammates'
 * sessions are "From the team"; a session with nothing new is not repeated.
 */
export const activeSessions: BriefSectionSource = ({ db, now, reader, cursor }) => {
  const since = cursor?.at ?? now - activeWindowMs
  const { sessions, total } = localSessionsSince(db, since, sourceLines)
  const lines = sessions.map((session) => sessionLine(session, now, reader.sessionId))
  if (cursor === null) {
    return [
      { key: 'sessions', title: 'Active in the last 24 h', lines, total, empty: 'no agent session recorded' },
    ]
  }
  const quiet = total === 0 ? countActiveSessions(db, now - activeWindowMs) : 0
  return [
    {
      key: 'sessions',
      title: `Sessions active since your last brief (${describeAge(cursor.at, now)})`,
      lines,
      total,
      empty: quiet === 0 ? 'none' : `none (${quiet} active in the last 24 h, nothing new from them)`,
    },
  ]
}

/** Commits on the reader's branch, and on the main branch when that is another, since the last brief. */
export const landedCommits: BriefSectionSource = (context) => {
  const { git, cursor } = context
  const sections: BriefSection[] = []
  if (git.head !== null) {
    const name = git.branch ?? 'HEAD (detached)'
    sections.push(
      commitSection(
        'branch',
        name,
        commitsFor(context, 'HEAD', git.head, cursor?.headCommit ?? null),
        context,
      ),
    )
  }
  if (git.mainBranch !== null && git.mainBranch !== git.branch && git.mainHead !== null) {
    sections.push(
      commitSection(
        'main',
        git.mainBranch,
        commitsFor(context, git.mainBranch, git.mainHead, cursor?.mainCommit ?? null),
        context,
      ),
    )
  }
  return sections
}

/** Notes since the last brief (or in the window, for a first brief), newest first. */
export const recentNotes: BriefSectionSource = ({ db, now, cursor }) => {
  // A note written in the same millisecond as the last brief was in it.
  const after = cursor?.at ?? now - defaultWindowDays * 24 * 60 * 60 * 1000
  const { notes, total } = listNotesAfter(db, after, sourceLines)
  return [
    {
      key: 'notes',
      title: cursor === null ? `Notes (last ${defaultWindowDays} days)` : 'Notes since your last brief',
      lines: notes.map((note) =>
        noteLine({ author: note.author, at: Date.parse(note.at), text: note.text }, now),
      ),
      total,
      empty: 'none',
    },
  ]
}

/**
 * `ref` (now at `at`) since the last brief, which saw it at `since`. A ref that has not moved has
 * nothing new, and git is not asked: a resumed session's SessionStart runs no git at all then.
 */
function commitsFor(context: BriefContext, ref: string, at: string | null, since: string | null): CommitList {
  if (context.cursor === null) return recentCommits(context.cwd, ref, firstBriefCommits)
  if (since !== null && since === at) return { commits: [], total: 0 }
  const between = since === null ? null : commitsBetween(context.cwd, since, ref, sourceLines)
  return between ?? commitsSince(context.cwd, ref, context.cursor.at, sourceLines)
}

function commitSection(key: string, branch: string, list: CommitList, context: BriefContext): BriefSection {
  const { cursor, now } = context
  return {
    key,
    title:
      cursor === null
        ? `Latest on ${branch}`
        : `New on ${branch} since your last brief (${describeAge(cursor.at, now)})`,
    lines: list.commits.map((commit) => commitLine(commit, now)),
    total: list.total,
    empty: 'nothing new',
  }
}
