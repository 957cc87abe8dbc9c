// Preloaded into a benchmarked process beside cpu-at-exit.mjs: prints the CPU time of its main
// thread alone (Linux: /proc/thread-self/schedstat, in ns), so a benchmark of a pipeline split over
// threads can tell the thread that bounds it from the others. Prints nothing where that file is absent.
import { readFileSync } from 'node:fs'

process.on('exit', () => {
  let ns
  try {
    ns = Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[0])
  } catch {
    return
  }
  process.stderr.write(`\nmain-thread-cpu-ms ${Math.round(ns / 1e6)}\n`)
})
