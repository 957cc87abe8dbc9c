import { type Dirent, existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gitLocationOverridden } from '../config/git-environment.ts'
import { findGitLayout, type GitLayout } from './git-layout.ts'

/** A ref as its files say: the commit it names (null when it names none yet) and what it points at. */
export interface RefValue {
  /** null: a symbolic ref to a ref that does not exist (an unborn branch). */
  readonly commit: string | null
  /** The ref it points at when symbolic (`refs/heads/main` for HEAD on main), else null. */
  readonly symref: string | null
}

const objectId = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/
/** Symbolic refs pointing at symbolic refs: git itself gives up after five. */
const maxDepth = 5

/**
 * A repository's refs read from its files: HEAD from the worktree's git dir, the rest loose under
 * the common dir, else from `packed-refs` (a loose ref wins over a packed one, as for git). Hooks
 * and commands call this rather than `git rev-parse` / `git for-each-ref`: each git process costs
 * several milliseconds of start-up. `openRefFiles` answers null wherever files may not be the whole
 * truth, and the caller asks git: GIT_DIR and the like in the environment, no `.git` found (a
 * bare repository), the reftable format.
 */
export class RefFiles {
  readonly layout: GitLayout
  #packed: Map<string, string> | null = null

  constructor(layout: GitLayout) {
    this.layout = layout
  }

  /** HEAD of this worktree; null when a file holds what this reader does not know (ask git). */
  head(): RefValue | null {
    return this.#resolve('HEAD', 0)
  }

  /**
   * `ref` (a full name: `refs/heads/main`); undefined when it does not exist, null when a file
   * holds what this reader does not know (ask git).
   */
  read(ref: string): RefValue | null | undefined {
    const value = this.#resolve(ref, 0)
    if (value === null) return null
    return value.commit === null && value.symref === null ? undefined : value
  }

  /**
   * The names of the refs under `prefix` (`refs/sangam/`), loose and packed, as `git for-each-ref
   * --format=%(refname) <prefix>` lists them; null when a file holds what this reader does not know.
   */
  names(prefix: string): string[] | null {
    const packed = this.#packedRefs()
    if (packed === null) return null
    const names = new Set([...packed.keys()].filter((name) => name.startsWith(prefix)))
    const walk = (ref: string): void => {
      let entries: Dirent[]
      try {
        entries = readdirSync(join(this.layout.commonDir, ref), { withFileTypes: true })
      } catch {
        return
      }
      for (const entry of entries) {
        const name = `${ref}${entry.name}`
        if (entry.isDirectory()) walk(`${name}/`)
        // `.lock`: a ref being written, not yet a ref.
        else if (entry.isFile() && !entry.name.endsWith('.lock')) names.add(name)
      }
    }
    walk(prefix.endsWith('/') ? prefix : `${prefix}/`)
    return [...names].sort()
  }

  /** null: unreadable; `{commit: null, symref: null}`: no such ref. */
  #resolve(ref: string, depth: number): RefValue | null {
    if (depth > maxDepth) return null
    const text = this.#loose(ref)
    if (text === undefined) {
      const packed = this.#packedRefs()
      if (packed === null) return null
      return { commit: packed.get(ref) ?? null, symref: null }
    }
    if (objectId.test(text)) return { commit: text, symref: null }
    if (!text.startsWith('ref:')) return null
    const target = text.slice('ref:'.length).trim()
    if (!target.startsWith('refs/')) return null
    const resolved = this.#resolve(target, depth + 1)
    return resolved === null ? null : { commit: resolved.commit, symref: target }
  }

  /** The loose ref's text; undefined when there is no such file. HEAD and per-worktree refs are the worktree's own. */
  #loose(ref: string): string | undefined {
    const dir = ref === 'HEAD' || perWorktree(ref) ? this.layout.gitDir : this.layout.commonDir
    try {
      return readFileSync(join(dir, ref), 'utf8').trim()
    } catch {
      return undefined
    }
  }

  /** Every packed ref by name (peeled lines skipped); empty without the file, null when it is not what git writes. */
  #packedRefs(): Map<string, string> | null {
    if (this.#packed !== null) return this.#packed
    const refs = new Map<string, string>()
    let text: string
    try {
      text = readFileSync(join(this.layout.commonDir, 'packed-refs'), 'utf8')
    } catch {
      this.#packed = refs
      return refs
    }
    for (const line of text.split('\n')) {
      if (line === '' || line.startsWith('#') || line.startsWith('^')) continue
      const space = line.indexOf(' ')
      const id = line.slice(0, space)
      if (space === -1 || !objectId.test(id)) return null
      refs.set(line.slice(space + 1), id)
    }
    this.#packed = refs
    return refs
  }
}

/** Refs that belong to one worktree, kept in its own git dir (git-worktree(1), "Refs"). */
function perWorktree(ref: string): boolean {
  return (
    ref.startsWith('refs/bisect/') || ref.startsWith('refs/worktree/') || ref.startsWith('refs/rewritten/')
  )
}

/**
 * The commit `name` names as `git rev-parse --verify <name>^{commit}` would find it, read from
 * files: a full ref (`refs/heads/main`) or a short name looked up in git's order (gitrevisions(7):
 * `refs/<name>`, `refs/tags/`, `refs/heads/`, `refs/remotes/`, `refs/remotes/<name>/HEAD`). null:
 * no such ref. undefined: only git can say (no ref files to read, a tag, which may need peeling,
 * a name that may be an object id or a file in the git dir, a file this reader does not know).
 */
export function commitFromFiles(cwd: string, name: string): string | null | undefined {
  const files = openRefFiles(cwd)
  if (files === null || name === '' || name.startsWith('-') || name.includes('..')) return undefined
  if (/^[0-9a-f]{4,64}$/.test(name) || /[~^:@{}\\*?[\s]/.test(name)) return undefined
  const candidates = name.startsWith('refs/')
    ? [name]
    : [
        `refs/${name}`,
        `refs/tags/${name}`,
        `refs/heads/${name}`,
        `refs/remotes/${name}`,
        `refs/remotes/${name}/HEAD`,
      ]
  if (!name.startsWith('refs/') && existsSync(join(files.layout.gitDir, name))) return undefined
  for (const candidate of candidates) {
    const ref = files.read(candidate)
    if (ref === null) return undefined
    if (ref === undefined) continue
    if (candidate.startsWith('refs/tags/') || !candidate.match(/^refs\/(heads|remotes)\//)) return undefined
    return ref.commit
  }
  return null
}

/**
 * The refs of the repository containing `cwd`, read from files; null where only git can say (see
 * `RefFiles`), and the caller runs git.
 */
export function openRefFiles(cwd: string): RefFiles | null {
  if (gitLocationOverridden()) return null
  const layout = findGitLayout(cwd)
  if (layout === null) return null
  // The reftable format keeps refs in binary tables; git leaves a placeholder HEAD beside them.
  if (existsSync(join(layout.commonDir, 'reftable'))) return null
  return new RefFiles(layout)
}
