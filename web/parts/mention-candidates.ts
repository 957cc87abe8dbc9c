// Pure: no DOM, so test/ui-mentions.test.ts runs it under node.

/** A name the room can address: `@handle`, `@human` or `#worktree`, with what it is. */
export type MentionTarget = { name: string; detail: string }

/** The mention being typed just before the caret, if any: its start offset and text (`@cl`). */
export function mentionAt(text: string, caret: number): { start: number; typed: string } | null {
  const before = text.slice(0, caret)
  const match = /(^|[\s(,])([@#][a-z0-9-]*)$/i.exec(before)
  if (!match?.[2]) return null
  return { start: caret - match[2].length, typed: match[2] }
}

/**
 * The targets matching what was typed: prefix matches first, then names containing it, each
 * group in the given order; `@` completes handles and `@human`, `#` worktrees.
 */
export function matchTargets(targets: readonly MentionTarget[], typed: string, limit = 8): MentionTarget[] {
  const sigil = typed[0]
  const word = typed.slice(1).toLowerCase()
  const same = targets.filter((target) => target.name[0] === sigil)
  const prefix = same.filter((target) => target.name.slice(1).toLowerCase().startsWith(word))
  const inner = same.filter(
    (target) => !prefix.includes(target) && target.name.slice(1).toLowerCase().includes(word),
  )
  return [...prefix, ...inner].slice(0, limit)
}

/** The text with the mention at `start` (typed so far: `typed`) replaced by `name` and a space. */
export function completeMention(
  text: string,
  start: number,
  typed: string,
  name: string,
): { text: string; caret: number } {
  const after = text.slice(start + typed.length)
  const spaced = after.startsWith(' ') ? after : ` ${after}`
  return { text: `${text.slice(0, start)}${name}${spaced}`, caret: start + name.length + 1 }
}

/** Every name `targets` offers: agents by handle, `@human`, worktrees by target name. */
export function mentionTargets(input: {
  agents: readonly { handle: string; vendor: string | null; state: string }[]
  worktrees: readonly { target: string; branch: string | null }[]
}): MentionTarget[] {
  const seen = new Set<string>()
  const out: MentionTarget[] = []
  const add = (name: string, detail: string) => {
    if (seen.has(name)) return
    seen.add(name)
    out.push({ name, detail })
  }
  for (const agent of input.agents) add(`@${agent.handle}`, `${agent.vendor ?? 'agent'} · ${agent.state}`)
  add('@human', 'the humans of the project')
  for (const worktree of input.worktrees) add(`#${worktree.target}`, worktree.branch ?? 'detached')
  return out
}
