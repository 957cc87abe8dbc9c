import { editDistance } from './edit-distance.ts'

/**
 * The names of `known` a mistyped `wanted` may have meant, closest first, at most `limit`: one
 * that starts with it (or it with one), one that holds it, or a few edits away (two, or a third of
 * its length). Every
 * refusal of an unknown name (a recipient, an option, a rule) suggests these. `forms` gives the
 * ways a name may be typed (an option by its full name or by its name within its group).
 */
export function closeNames(
  wanted: string,
  known: readonly string[],
  options: { readonly limit?: number; readonly forms?: (name: string) => readonly string[] } = {},
): string[] {
  const typed = wanted.trim().toLowerCase()
  if (typed === '') return []
  const forms = options.forms ?? ((name: string) => [name])
  const scored = [...new Set(known)]
    .map((name) => {
      const scores = forms(name).map((form) => {
        const bare = form.toLowerCase()
        if (bare.startsWith(typed) || typed.startsWith(bare)) return 0
        // A part of the name (`overlap` for `file-overlap`), when it is more than a letter or two.
        if (typed.length >= 4 && bare.includes(typed)) return 1
        return editDistance(typed, bare)
      })
      return { name, score: Math.min(...scores) }
    })
    .filter((entry) => entry.score <= Math.max(2, Math.floor(typed.length / 3)))
  scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
  return scored.slice(0, options.limit ?? 5).map((entry) => entry.name)
}
