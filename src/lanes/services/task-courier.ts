/** Hands a semantic task to the lane's own agent; says which channel carried it, or why none could. */
export interface TaskCourier {
  deliver(input: {
    lane: string
    worktree: string
    prompt: string
  }): Promise<{ delivered: true; channel: string } | { delivered: false; reason: string }>
}
