import type { CommandRun } from '../../command.ts'
import type { uiInput } from './inputs.ts'
import { startUiSession } from './ui-session.ts'

export const run: CommandRun<typeof uiInput> = async (ctx, _args, options) => {
  const session = await startUiSession(ctx, { port: options.port, open: options.open, json: options.json })
  try {
    await stopped(ctx.stopSignal)
  } finally {
    await session.close()
  }
  // The URL was the output, printed when the server started.
  return { json: undefined, text: '' }
}

function stopped(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve()
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
}
