import { applyPatchPaths } from '../agents/codex/core/apply-patch-paths.ts'
import type { HookPayload } from '../agents/hook-payload.ts'
import { stringField } from '../agents/hook-payload.ts'

/**
 * The paths (as the tool gave them) that one tool call would write, or null when the call is not
 * a file edit we gate. Claude's file tools carry an absolute `file_path` (`notebook_path` for
 * NotebookEdit); Codex's `apply_patch` carries a patch whose headers name the files. opencode's
 * tools, lower-case, name theirs in `filePath` (edit, write, multiedit) or in a patch (`patchText`).
 * A recognised edit tool whose input names no file yields [] (nothing to check).
 */
export function editTargets(payload: HookPayload): string[] | null {
  const input = payload.toolInput ?? {}
  switch (payload.toolName) {
    case 'Write':
    case 'Edit':
    case 'MultiEdit':
      return present(stringField(input, 'file_path'))
    case 'NotebookEdit':
      return present(stringField(input, 'notebook_path') ?? stringField(input, 'file_path'))
    case 'edit':
    case 'write':
    case 'multiedit':
      return present(stringField(input, 'filePath'))
    case 'patch':
    case 'apply_patch': {
      const patch =
        stringField(input, 'command') ??
        stringField(input, 'patch') ??
        stringField(input, 'input') ??
        stringField(input, 'patchText')
      return patch === null ? [] : applyPatchPaths(patch)
    }
    default:
      return null
  }
}

function present(path: string | null): string[] {
  return path === null ? [] : [path]
}
