import type { Checked } from '../../options/core/option-type.ts'

/** A lane's name: a letter or digit, then letters, digits, `_` or `-`, at most 40 characters. */
const laneNamePattern = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/

/** Checks a lane name as typed; the branch is `lane/<name>`. */
export function checkLaneName(text: string): Checked<string> {
  const name = text.trim()
  if (laneNamePattern.test(name)) return { ok: true, value: name }
  return {
    ok: false,
    problem: `"${name.slice(0, 60)}" is not a lane name: use a letter or digit, then letters, digits, _ or - (at most 40)`,
  }
}

export function laneBranch(name: string): string {
  return `lane/${name}`
}

/** A task id: `<UTC yyyymmdd-hhmmss-mmm>-<lane>`, sortable by time, safe as a ref and a file name. */
export function taskId(lane: string, now: number): string {
  return `${stamp(now)}-${lane}`
}

/** `yyyymmdd-hhmmss-mmm` in UTC: names recovery refs and manifests in time order. */
export function stamp(now: number): string {
  const iso = new Date(now).toISOString()
  return `${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}-${iso.slice(20, 23)}`
}
