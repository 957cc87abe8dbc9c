/** Codex `exec --json` starts with `{"type":"thread.started","thread_id":"…"}`: the new session's id. */
export function codexThreadIdIn(output: string): string | null {
  const match = /"thread_id"\s*:\s*"([0-9a-fA-F-]{8,})"/.exec(output)
  return match?.[1] ?? null
}
