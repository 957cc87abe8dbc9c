// Preloaded into a benchmarked process (`node --import …`): prints the CPU time it used (all its
// threads) as the last line on stderr, so a benchmark can quote CPU beside wall-clock time.
process.on('exit', () => {
  const usage = process.cpuUsage()
  process.stderr.write(`\ncpu-ms ${Math.round((usage.user + usage.system) / 1000)}\n`)
})
