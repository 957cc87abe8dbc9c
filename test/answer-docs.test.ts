import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { z } from 'zod'
import {
  sendResultViewSchema,
  sessionViewSchema,
  turnViewSchema,
} from '../src/delivery/protocol/session-view.ts'
import { laneStatusViewSchema } from '../src/lanes/protocol/lane-status-view.ts'
import { releaseOutcomeViewSchema, whoHasViewSchema } from '../src/leases/protocol/lease-view.ts'
import { noteViewSchema } from '../src/memory/protocol/note-view.ts'
import { searchResultViewSchema } from '../src/memory/protocol/search-view.ts'
import { threadResultViewSchema } from '../src/memory/protocol/thread-view.ts'
import { claimAnswerViewSchema } from '../src/project/protocol/claim-view.ts'
import { projectBoardViewSchema } from '../src/project/protocol/project-board-view.ts'
import { readyAnswerViewSchema } from '../src/project/protocol/ready-answer-view.ts'
import { collisionsViewSchema } from '../src/room/protocol/board-view.ts'
import { messageViewSchema, threadViewSchema } from '../src/room/protocol/message-view.ts'
import { alertViewSchema, ruleViewSchema } from '../src/room/protocol/rules-view.ts'
import { targetsViewSchema } from '../src/room/protocol/targets-view.ts'
import { assertAnswer } from './helpers/strict-schema.ts'

/**
 * docs/cli.md shows each command's `--json` answer as an example; the example of each answer
 * declared as a view schema parses with that schema strictly, so the docs name exactly its fields
 * (a field added to the schema and not to the docs fails here, and the other way round).
 */

const cliDocs = readFileSync(join(import.meta.dirname, '..', 'docs', 'cli.md'), 'utf8')

/** Each command's section heading (`## \`sangam <command>`) and the schema of its `--json` answer. */
const documented: readonly (readonly [string, z.ZodType])[] = [
  ['post', z.object({ message: messageViewSchema })],
  ['read', z.object({ messages: z.array(messageViewSchema) })],
  ['thread-open', z.object({ thread: threadViewSchema })],
  ['threads', z.object({ threads: z.array(threadViewSchema), collisions: collisionsViewSchema })],
  ['board', projectBoardViewSchema],
  ['rules', z.object({ rules: z.array(ruleViewSchema) })],
  ['alerts', z.object({ alerts: z.array(alertViewSchema), collisions: collisionsViewSchema })],
  ['targets', targetsViewSchema],
  ['ready', readyAnswerViewSchema],
  ['search', searchResultViewSchema],
  ['thread', threadResultViewSchema],
  ['note', noteViewSchema],
  ['claim', claimAnswerViewSchema],
  ['release', releaseOutcomeViewSchema],
  ['who-has', whoHasViewSchema],
  ['status', laneStatusViewSchema],
  ['sessions', z.object({ sessions: z.array(sessionViewSchema) })],
  ['send', sendResultViewSchema],
  ['start', z.object({ turn: turnViewSchema })],
  ['stop', z.object({ turn: turnViewSchema })],
]

/** The first JSON example of the command's section: the text of its first ```json block. */
function example(command: string): unknown {
  const heading = `\n## \`sangam ${command}`
  const starts = [
    ...cliDocs.matchAll(new RegExp(`${heading.replace(/[.*+?^${}()|[\]\\`]/g, '\\$&')}[ \`]`, 'g')),
  ]
  assert.equal(starts.length, 1, `one section for sangam ${command}`)
  const from = starts[0]?.index ?? 0
  const end = cliDocs.indexOf('\n## ', from + 1)
  const section = cliDocs.slice(from, end === -1 ? undefined : end)
  const block = /```json\n([\s\S]*?)\n```/.exec(section)
  assert.ok(block, `sangam ${command}'s section shows its --json answer`)
  return JSON.parse(block[1] ?? '')
}

for (const [command, schema] of documented)
  test(`docs/cli.md shows sangam ${command}'s --json answer with exactly its view schema's fields`, () => {
    assertAnswer(schema, example(command), `docs/cli.md's sangam ${command} example`)
  })
