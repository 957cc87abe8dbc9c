import { argument, defineInput } from '../../command-input.ts'

/** What the room's presence commands accept (src/cli/registry.ts lists the commands). */

export const identifyInput = defineInput({
  arguments: {
    session: argument('session', 'a session id, a unique prefix of one, or its current handle'),
    handle: argument('handle', 'the handle to claim: lowercase letters, digits and inner dashes'),
  },
})

export const targetsInput = defineInput({})
