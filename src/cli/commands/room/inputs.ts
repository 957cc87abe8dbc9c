import {
  argument,
  choice,
  defineInput,
  flag,
  integer,
  optionalArgument,
  repeated,
  text,
  words,
} from '../../command-input.ts'

/**
 * What the room's message and thread commands accept, declared once: main.ts parses it before a
 * command loads (src/cli/registry.ts lists the commands).
 */

// Declared here, not imported: --help and usage errors must load no command's code (nor zod).
// inputs.test.ts keeps them equal to room/protocol and room/services/read.ts.
export const messageKinds = ['message', 'allocation', 'handoff'] as const
export const threadAudiences = ['agents', 'human-loop'] as const
export const threadLifetimes = ['durable', 'temporary'] as const
export const maxReadLimit = 500

export const postInput = defineInput({
  arguments: {
    text: words('text', 'the message; quote it or not (@handle and #worktree mention)', { required: true }),
  },
  options: {
    to: repeated('--to <recipient>', 'address @handle, @human or #worktree (repeat, or comma-separate)'),
    kind: choice('--kind <kind>', `${messageKinds.join(', ')} (default message)`, messageKinds),
    topic: text('--topic <topic>', 'a topic word for the message'),
    thread: text('--thread <id>', 'post into this open thread (you join it)'),
  },
})

export const readInput = defineInput({
  options: {
    after: text('--after <id>', 'only the messages after this one'),
    limit: integer('--limit <n>', `at most n messages, 1–${maxReadLimit} (default 50)`, {
      min: 1,
      max: maxReadLimit,
    }),
  },
})

export const threadOpenInput = defineInput({
  options: {
    title: text('--title <title>', 'what the thread is about (required)'),
    reason: text('--reason <reason>', 'why it is open'),
    audience: choice(
      '--audience <audience>',
      'agents, or human-loop (waits on a human; default agents)',
      threadAudiences,
    ),
    lifetime: choice('--lifetime <lifetime>', 'durable or temporary (default durable)', threadLifetimes),
    participant: repeated('--participant <who>', '@handle, @human or #worktree taking part (repeat)'),
    path: repeated('--path <path>', 'a repository path the thread is about (repeat)'),
  },
})

export const threadCloseInput = defineInput({
  arguments: { id: argument('id', 'the thread id, as threads prints it') },
})

export const threadsInput = defineInput({
  options: { all: flag('--all', 'closed threads too') },
})

export const boardInput = defineInput({})

export const identifyInput = defineInput({
  arguments: {
    session: optionalArgument('session', 'a session id, a unique prefix of one, or its current handle'),
    handle: optionalArgument('handle', 'the handle to claim: lowercase letters, digits and inner dashes'),
  },
  options: {
    machine: text(
      '--machine <name>',
      "this machine's name for the team (default: its hostname): 1–40 letters, digits, '.', '_' or '-'",
    ),
  },
})

export const targetsInput = defineInput({})

export const readyInput = defineInput({
  options: {
    into: text('--into <branch>', 'the branch the lanes would land on (default: main, master or trunk)'),
  },
})
export const rulesInput = defineInput({
  arguments: {
    action: optionalArgument('action', 'set, to change a rule (then <rule> <rung>)'),
    rule: optionalArgument('rule', 'the rule to change'),
    rung: optionalArgument('rung', 'off, advise, warn or refuse'),
  },
})

export const optionsInput = defineInput({})

export const optionSetInput = defineInput({
  arguments: {
    name: argument('name', 'the full option name, as options lists it (room.stale-days)'),
    value: argument('value', 'the new value, as options describes the values it takes'),
  },
})

export const alertsInput = defineInput({})
export const chatInput = defineInput({
  options: {
    recent: integer(
      '--recent <n>',
      `how many recent messages to show first, 0–${maxReadLimit} (default 20)`,
      {
        min: 0,
        max: maxReadLimit,
      },
    ),
  },
})

export const codexInput = defineInput({
  arguments: {
    args: words(
      'args',
      'what Codex itself takes: a prompt, resume <id>, its flags (after -- when sangam has one)',
      {
        required: false,
      },
    ),
  },
})
