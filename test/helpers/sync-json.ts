/** `sangam sync --json` as the lane tests read it (docs/cli.md has the whole shape). */
export interface SyncJson {
  lane: string
  outcome: string
  main: string
  task: { id: string; file: string; validationFile: string } | null
  channel: string | null
  taskText: string | null
}

/** A refused command's `--json` answer: its closed code, what went wrong and what to do next. */
export interface RefusalJson {
  error: { code: string; message: string; next: string }
}
