import { defineInput, flag, integer } from '../../command-input.ts'

/**
 * What the dashboard's command accepts, declared once: main.ts parses it before the command loads
 * (src/cli/registry.ts lists the commands), and the command types its `run` by its input.
 */

export const uiPort = integer('--port <number>', 'port to listen on, on 127.0.0.1 (default: a free one)', {
  min: 1,
  max: 65_535,
})

export const uiInput = defineInput({
  options: {
    port: uiPort,
    open: flag('--no-open', 'print the URL only; do not open a browser'),
  },
})
