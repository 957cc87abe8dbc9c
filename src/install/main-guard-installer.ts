import { gitHooksDir } from '../git/hooks-dir.ts'
import { type GuardHook, guardHooks, mainGuardMarker } from '../lanes/services/guard-state.ts'
import {
  armMainGuard,
  assertGuardable,
  disarmMainGuard,
  integratorVariable,
  mainGuardFile,
} from '../lanes/services/main-guard-file.ts'
import type { Random } from '../shared/random.ts'
import {
  chainedHookName,
  type HookScriptChange,
  installChainedHook,
  uninstallChainedHook,
} from './chained-hook.ts'
import { installPrePush, uninstallPrePush } from './pre-push-installer.ts'

/**
 * Installs the main guard (`sangam init --guard`, `sangam lane`): the six hooks of
 * `lanes/services/guard-state.ts` in the hooks directory git runs (`core.hooksPath` honoured), each
 * chaining the user's own hook of that name, and the file that arms this repository
 * (`main-guard-file.ts`). `pre-push` is the one pre-push gate sangam has, which also checks leases;
 * the other five are shell scripts (no node on git's fast path). Running it again changes nothing.
 */
export interface MainGuardInstall {
  readonly root: string
  readonly commonDir: string
  readonly mainBranch: string
  /** The pre-push gate's entry (`hookEntries(...).prePush`). */
  readonly prePushEntry: string
  readonly random: Random
}

export interface MainGuardReport {
  readonly mainBranch: string | null
  /** The file that arms the guard in this repository. */
  readonly armedBy: string
  readonly hooks: readonly (HookScriptChange & { readonly hook: GuardHook })[]
}

export function installMainGuard(install: MainGuardInstall): MainGuardReport {
  assertGuardable(install.mainBranch)
  const dir = gitHooksDir(install.root)
  // Armed last: a half-installed guard (a hook we could not write) guards nothing yet.
  const hooks = guardHooks.map((hook) => ({
    hook,
    ...(hook === 'pre-push'
      ? installPrePush(dir, install.prePushEntry)
      : installChainedHook(dir, hook, guardScript(hook), isGuardScript)),
  }))
  const guard = armMainGuard(install.commonDir, install.mainBranch, install.random)
  return { mainBranch: guard.mainBranch, armedBy: mainGuardFile(install.commonDir), hooks }
}

/**
 * Disarms the repository first, then takes the hooks out, putting back the user's own. The
 * pre-push gate goes too (`install-hooks --uninstall` is the one way out of sangam's git hooks).
 */
export function uninstallMainGuard(root: string, commonDir: string): MainGuardReport {
  disarmMainGuard(commonDir)
  const dir = gitHooksDir(root)
  const hooks = guardHooks.map((hook) => ({
    hook,
    ...(hook === 'pre-push' ? uninstallPrePush(dir) : uninstallChainedHook(dir, hook, isGuardScript)),
  }))
  return { mainBranch: null, armedBy: mainGuardFile(commonDir), hooks }
}

function isGuardScript(text: string): boolean {
  return text.split('\n', 3).some((line) => line.startsWith(mainGuardMarker))
}

/**
 * One guard hook. It reads the arming file of the repository it runs in (so a hooks directory
 * shared by several repositories guards only the armed ones), lets sangam's integration through
 * (`SANGAM_INTEGRATOR` equal to the token), refuses a write of main, and otherwise runs the
 * user's chained hook exactly as git would have (same arguments, same stdin).
 */
export function guardScript(hook: Exclude<GuardHook, 'pre-push'>): string {
  const chained = chainedHookName(hook)
  return `#!/bin/sh
${mainGuardMarker} (${hook}): only \`sangam sync\` moves the protected main branch.
# Installed by \`sangam init --guard\` or \`sangam lane\`; \`sangam install-hooks --uninstall\` removes it
# and puts back the hook it chains (${chained}), which runs after the guard with the same arguments
# and stdin. Armed per repository by <git-common-dir>/sangam/main-guard; git run with
# ${integratorVariable}=<its token> (sangam's integration) may move main.
case "$0" in */*) hooks="\${0%/*}" ;; *) hooks=. ;; esac
chained="$hooks/${chained}"
${earlyExit(hook)}guard_main=''
guard_token=''
${commonDirDiscovery}
if [ -n "$common" ] && [ -f "$common/sangam/main-guard" ]; then
  while IFS='=' read -r key value; do
    case "$key" in
      main) guard_main="$value" ;;
      token) guard_token="$value" ;;
    esac
  done < "$common/sangam/main-guard"
fi
guarding=0
if [ -n "$guard_main" ] && [ "\${${integratorVariable}:-}" != "$guard_token" ]; then guarding=1; fi
put_back_said=''
refuse() {
  printf 'sangam: main is protected: %s is refused. %s moves only through \`sangam sync\` from a lane (\`sangam lane <name>\`); \`sangam status\` shows the lanes.\\n' "$1" "'$guard_main'" >&2
  if [ -n "$put_back_said" ]; then printf 'sangam: %s\\n' "$put_back_said" >&2; fi
  exit 1
}
${hookCheck(hook)}
if [ -x "$chained" ]; then
  exec "$chained" "$@"
fi
exit 0
`
}

/**
 * The repository's common dir, found without a git process where the layout is the usual one: a
 * hook runs in its worktree's root (githooks(5)), where `.git` is the git dir itself (the main
 * worktree) or a file naming it (a linked worktree, whose `commondir` names the common dir,
 * either path maybe relative). reference-transaction runs for every ref git moves, and a
 * `git rev-parse` there was most of a ref move's cost. Anything unusual (GIT_DIR and the like
 * set, a bare repository, a push's hook run in the git dir) asks git as before.
 */
const commonDirDiscovery = `common=''
if [ -z "\${GIT_DIR:-}\${GIT_COMMON_DIR:-}\${GIT_WORK_TREE:-}" ]; then
  if [ -d .git ]; then
    common="$PWD/.git"
  elif [ -f .git ]; then
    IFS= read -r gitdir < .git
    gitdir="\${gitdir#gitdir: }"
    case "$gitdir" in /*) ;; *) gitdir="$PWD/$gitdir" ;; esac
    if [ -f "$gitdir/commondir" ]; then
      IFS= read -r common < "$gitdir/commondir"
      case "$common" in /*) ;; *) common="$gitdir/$common" ;; esac
    elif [ -d "$gitdir" ]; then
      common="$gitdir"
    fi
  fi
fi
if [ -z "$common" ]; then common="$(git rev-parse --git-common-dir 2>/dev/null)"; fi`

/**
 * What a hook may answer before it asks git anything: reference-transaction runs two or three
 * times for every ref git moves (most of them not main), and only its prepared state can refuse.
 */
function earlyExit(hook: Exclude<GuardHook, 'pre-push'>): string {
  if (hook !== 'reference-transaction') return ''
  return `if [ "$1" != prepared ] && [ ! -x "$chained" ]; then exit 0; fi
`
}

function hookCheck(hook: Exclude<GuardHook, 'pre-push'>): string {
  switch (hook) {
    case 'pre-commit':
    case 'pre-merge-commit':
    case 'pre-applypatch': {
      const what =
        hook === 'pre-applypatch'
          ? 'applying a patch on'
          : hook === 'pre-commit'
            ? 'a commit on'
            : 'a merge commit on'
      return `if [ "$guarding" = 1 ] && [ "$(git symbolic-ref -q HEAD 2>/dev/null)" = "refs/heads/$guard_main" ]; then
  refuse "${what} '$guard_main'"
fi`
    }
    case 'pre-rebase':
      // $2 is the branch being rebased; without it, the current branch.
      return `if [ "$guarding" = 1 ]; then
  target="\${2:-}"
  if [ -z "$target" ]; then target="$(git symbolic-ref -q HEAD 2>/dev/null)"; fi
  if [ "$target" = "$guard_main" ] || [ "$target" = "refs/heads/$guard_main" ]; then
    refuse "rebasing '$guard_main'"
  fi
fi`
    case 'reference-transaction':
      // Only the local branch: fetches move refs/remotes/*, which pass. An update that names no
      // old value (all zeros) is compared with the ref's current value, so rewriting a ref in place
      // (pack-refs) is no move. Stdin is read only in the prepared state, and handed on whole (read
      // straight from git when there is no chained hook to hand it to: no \`cat\` process).
      //
      // A command that rewrites the worktree before it moves the ref (\`reset --hard\`, a
      // fast-forward \`merge\` or \`pull\`, \`checkout -B\`) has already done so when the move is
      // refused, leaving a staged reverse diff on main (D304): \`put_back\` brings the index and
      // files back from the target's tree to main's with a two-tree \`read-tree -m -u\` (which keeps
      // other local changes and refuses rather than overwrite one), only in main's own worktree,
      // only when the index holds exactly the target's files, and only for a target some ref
      // already holds: a commit being made (\`commit --no-verify\`) is new, and its staged
      // changes are the user's own work. Nested git reads /dev/null, not the ref list on stdin.
      return `put_back() {
  [ -n "$1" ] || return 0
  case "$2" in *[!0]*) ;; *) return 0 ;; esac
  [ "$(git symbolic-ref -q HEAD </dev/null 2>/dev/null)" = "refs/heads/$guard_main" ] || return 0
  [ -n "$(git for-each-ref --count=1 --contains "$2" </dev/null 2>/dev/null)" ] || return 0
  git diff-index --quiet --cached "$2" -- </dev/null >/dev/null 2>&1 || return 0
  if git read-tree -m -u "$2" "$1" </dev/null >/dev/null 2>&1; then
    put_back_said="git had already changed the files to $2's; they were put back as '$guard_main' is."
  elif git read-tree -m "$2" "$1" </dev/null >/dev/null 2>&1; then
    put_back_said="git had already changed the index to $2's; it was put back as '$guard_main' is (the files were not touched)."
  else
    put_back_said="git had already changed the files to $2's and they could not be put back: git read-tree -m -u $2 $1 does it, or git reset --hard (which drops every uncommitted change)."
  fi
}
check_ref() {
  [ "$3" = "refs/heads/$guard_main" ] || return 0
  old="$1"
  case "$old" in
    *[!0]*) ;;
    *) old="$(git rev-parse -q --verify "$3" </dev/null 2>/dev/null)" ;;
  esac
  if [ "$2" != "$old" ]; then
    put_back "$old" "$2"
    refuse "moving '$guard_main' (to $2)"
  fi
}
if [ "$1" = prepared ] && [ "$guarding" = 1 ]; then
  if [ ! -x "$chained" ]; then
    while read -r old new ref; do check_ref "$old" "$new" "$ref"; done
    exit 0
  fi
  input="$(cat)"
  while read -r old new ref; do check_ref "$old" "$new" "$ref"; done <<SANGAM_REFS
$input
SANGAM_REFS
  if [ -z "$input" ]; then exec "$chained" "$@" </dev/null; fi
  printf '%s\\n' "$input" | "$chained" "$@"
  exit $?
fi`
  }
}
