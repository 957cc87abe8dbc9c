/**
 * A brief is a header and sections, each a title over lines ordered by importance. It must fit a
 * character budget whatever the data (it lands in an agent's context window), and every section
 * must still show, so no single busy section can crowd out the others.
 */
export interface BriefSection {
  /** Stable name for `--json` readers: `sessions`, `branch`, `main`, `notes`, … */
  readonly key: string
  readonly title: string
  /** Most important first; each one line. */
  readonly lines: readonly string[]
  /** How many items exist in all (may exceed `lines` when the source itself was cut). */
  readonly total: number
  /** Said instead of lines when there are none. */
  readonly empty: string
}

export interface AssembledSection {
  readonly key: string
  readonly title: string
  readonly lines: readonly string[]
  readonly total: number
}

export interface AssembledBrief {
  readonly text: string
  readonly sections: readonly AssembledSection[]
}

/** The brief's budget: about 500 tokens. */
export const briefBudget = 2000
/** A line longer than this is cut: a brief says what, and `search`/`thread` say more. */
export const maxBriefLineChars = 160

/**
 * Fits the sections into `budget` characters: lines are dealt round-robin, one per section per
 * round, while they fit; whatever a section could not show is counted in a closing "… and N more".
 * Adding a section therefore only ever costs the others their least important lines.
 */
export function assembleBrief(
  header: string,
  sections: readonly BriefSection[],
  budget = briefBudget,
): AssembledBrief {
  const head = clip(header, maxBriefLineChars)
  const shown = sections.map(() => 0)
  const lines = sections.map((section) => section.lines.map((line) => clip(line, maxBriefLineChars)))
  const textOf = (counts: readonly number[]): string => render(head, sections, lines, counts)
  for (let progress = true; progress; ) {
    progress = false
    sections.forEach((_, index) => {
      if ((shown[index] ?? 0) >= (lines[index]?.length ?? 0)) return
      const tried = shown.map((count, i) => (i === index ? count + 1 : count))
      if (textOf(tried).length > budget) return
      shown[index] = (shown[index] ?? 0) + 1
      progress = true
    })
  }
  const text = textOf(shown)
  return {
    text: text.length <= budget ? text : `${text.slice(0, budget - 1)}…`,
    sections: sections.map((section, index) => ({
      key: section.key,
      title: section.title,
      lines: (lines[index] ?? []).slice(0, shown[index] ?? 0),
      total: section.total,
    })),
  }
}

function render(
  header: string,
  sections: readonly BriefSection[],
  lines: readonly (readonly string[])[],
  shown: readonly number[],
): string {
  const parts = [header]
  sections.forEach((section, index) => {
    const count = shown[index] ?? 0
    const body = (lines[index] ?? []).slice(0, count).map((line) => `- ${line}`)
    const rest = Math.max(section.total, lines[index]?.length ?? 0) - count
    if (rest > 0) body.push(`- … and ${rest} more`)
    if (body.length === 0) body.push(`- ${section.empty}`)
    parts.push('', `${section.title}:`, ...body)
  })
  return parts.join('\n')
}

function clip(line: string, max: number): string {
  const flat = line.replace(/\s+/g, ' ').trim()
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`
}
