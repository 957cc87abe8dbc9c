import type { ServerResponse } from 'node:http'
import {
  type Answered,
  type FakeModelServer,
  type Responder,
  startFakeModelServer,
} from './fake-model-server.ts'
import { perTurn, type Script, stepFor, type TurnPosition } from './user-turns.ts'

/**
 * What every fake vendor API holds above the HTTP plumbing: the script a scenario sets (and
 * resets between phases), the step each main-loop request gets from it, and ids unique within
 * the server. Each vendor's server only speaks its protocol: routes, where the user turn is in
 * the body, how a step is streamed.
 */
export interface ScriptedModelServer<Step> extends FakeModelServer {
  /** Sets the replies for the turns that follow: one list for every turn, or a choice per turn. */
  script(script: Script<Step>): void
  /** User turn `n` of a session walks `turns[n]` (the last list for every later turn). */
  scriptTurns(turns: readonly (readonly Step[])[]): void
}

/** A step for the APIs whose tool calls carry a JSON object (Anthropic, Chat Completions). */
export type ToolOrTextStep =
  | { readonly tool: string; readonly input: Readonly<Record<string, unknown>> }
  | { readonly text: string }

/** What a vendor's responder is handed besides the request: the script's answer and an id maker. */
export interface ScriptPlayer<Step> {
  /** The step a main-loop request at `turn` gets from the current script. */
  stepAt(turn: TurnPosition): Step
  /** A fresh id `<prefix>_fake000001`: the CLIs key tool calls and messages by id. */
  id(prefix: string): string
}

export type ScriptedResponder<Step> = (
  request: Parameters<Responder>[0],
  response: ServerResponse,
  player: ScriptPlayer<Step>,
) => Answered

/** `done` is the script until a scenario sets one, and the answer past a script's end. */
export async function startScriptedModelServer<Step>(
  done: Step,
  respond: ScriptedResponder<Step>,
): Promise<ScriptedModelServer<Step>> {
  let current: Script<Step> = [done]
  let counter = 0
  const player: ScriptPlayer<Step> = {
    stepAt: (turn) => stepFor(current, turn, done),
    id: (prefix) => `${prefix}_fake${(counter++).toString(36).padStart(6, '0')}`,
  }
  const server = await startFakeModelServer((request, response) => respond(request, response, player))
  return {
    ...server,
    script(next) {
      current = next
    },
    scriptTurns(turns) {
      current = perTurn(turns)
    },
  }
}
