import { byteSize, defineInput, flag, integer, text } from '../../command-input.ts'
import { defaultServePort } from '../../serve-port.ts'

/**
 * What the server commands accept, declared once: main.ts parses it before a command loads
 * (src/cli/registry.ts lists the commands), and each command types its `run` by its input.
 */

export const serveInput = defineInput({
  options: {
    host: text('--host <address>', 'address to listen on (default 127.0.0.1)'),
    port: integer('--port <number>', `port to listen on; 0 picks a free one (default ${defaultServePort})`, {
      min: 0,
      max: 65_535,
    }),
    data: text('--data <dir>', 'where projects are stored (default $SANGAM_HOME/server)'),
    installRuntime: flag(
      '--install-runtime',
      'first install the Workers runtime (miniflare with workerd) into $SANGAM_HOME/runtime if it is missing',
    ),
    maxProjectSize: byteSize(
      '--max-project-size <size>',
      "each project's storage budget, e.g. 2GB (default 1GB; pushes past it are refused QUOTA_EXCEEDED)",
      64 * 1024,
    ),
  },
})
