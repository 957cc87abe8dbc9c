import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** The peers bench's repositories: git in a folder, a file written, a fresh 200-file main. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim()
}

export function write(dir: string, path: string, text: string): void {
  mkdirSync(join(dir, path, '..'), { recursive: true })
  writeFileSync(join(dir, path), text)
}

/** A repository of 200 files on main, committed. */
export function freshRepo(path: string): void {
  mkdirSync(path, { recursive: true })
  git(path, 'init', '-q', '-b', 'main')
  git(path, 'config', 'user.name', 'Dev')
  git(path, 'config', 'user.email', 'dev@example.com')
  git(path, 'config', 'commit.gpgsign', 'false')
  for (let i = 0; i < 200; i += 1) write(path, `src/m${i}.js`, `export const v${i} = ${i}\n`)
  write(path, 'app.txt', 'base\n')
  git(path, 'add', '-A')
  git(path, 'commit', '-q', '-m', 'initial')
}
