import { spawn, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import type { UpProcess } from '../../test/helpers/up-process.ts'

const ticksPerSecond = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100

/** CPU seconds a process (all its threads, and the children it waited for) has used. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // Fields after the command name (which may hold spaces) in parentheses; utime is field 14.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0)
  return ticks / ticksPerSecond
}

/**
 * The daemon's CPU (percent of one core) over `idleSeconds` of idling, beside an idle node process's
 * over the same time.
 */
export async function idleCpu(
  up: UpProcess,
  idleSeconds: number,
): Promise<{ daemon: number; baseline: number }> {
  const baseline = spawn(process.execPath, ['-e', 'setInterval(()=>{},1000)'], { stdio: 'ignore' })
  await sleep(2000)
  const daemonPid = up.child.pid ?? 0
  const baselinePid = baseline.pid ?? 0
  const before = [cpuSeconds(daemonPid), cpuSeconds(baselinePid)] as const
  const began = performance.now()
  await sleep(idleSeconds * 1000)
  const seconds = (performance.now() - began) / 1000
  const after = [cpuSeconds(daemonPid), cpuSeconds(baselinePid)] as const
  baseline.kill('SIGTERM')
  return {
    daemon: (100 * (after[0] - before[0])) / seconds,
    baseline: (100 * (after[1] - before[1])) / seconds,
  }
}
