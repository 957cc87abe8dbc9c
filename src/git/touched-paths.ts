import { runGitAsync } from './git.ts'

/**
 * The paths `tip` changes since it left `base`: `git diff base...tip` (against their merge base),
 * renames as a deletion and an addition so both paths count. Null when they share no history.
 */
export async function touchedPaths(cwd: string, base: string, tip: string): Promise<string[] | null> {
  const result = await runGitAsync(
    ['diff', '--name-only', '--no-renames', '-z', `${base}...${tip}`, '--'],
    cwd,
  )
  if (result.code !== 0) return null
  return [...new Set(result.stdout.split('\0').filter((item) => item !== ''))].sort()
}
