import type { ChildProcess } from 'node:child_process'

/** What a child process has printed so far, read at any time. */
export interface ChildOutput {
  readonly stdout: string
  readonly stderr: string
}

/** Collects a child's stdout and stderr (UTF-8) as they come; the tests read them when they need. */
export function collectOutput(child: Pick<ChildProcess, 'stdout' | 'stderr'>): ChildOutput {
  const output = { stdout: '', stderr: '' }
  child.stdout?.on('data', (chunk: Buffer) => {
    output.stdout += chunk.toString('utf8')
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    output.stderr += chunk.toString('utf8')
  })
  return output
}
