import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { laneProject } from './helpers/lane-fixture.ts'
import { connectMcp } from './helpers/mcp-client.ts'
import { isolatedEnv } from './helpers/run-cli.ts'

function text(result: Awaited<ReturnType<Client['callTool']>>): string {
  const [first] = result.content as { type: string; text: string }[]
  return first?.text ?? ''
}

test('an agent in a lane publishes through lane_sync and sees the lanes through lane_status; a refusal names its code and next step', async () => {
  await using p = await laneProject()
  const alice = await p.lane('alice')
  const bob = await p.lane('bob')
  const env = isolatedEnv(p.home.path, { SANGAM_USER: 'alice@x.dev' })
  await using inAlice = await connectMcp(alice, env)
  p.write(alice, 'a.txt', 'alice\n')
  const synced = await inAlice.client.callTool({ name: 'lane_sync', arguments: {} })
  assert.notEqual(synced.isError, true, text(synced))
  assert.deepEqual(
    {
      lane: (synced.structuredContent as { lane: string }).lane,
      outcome: (synced.structuredContent as { outcome: string }).outcome,
    },
    { lane: 'alice', outcome: 'published-direct' },
  )
  assert.equal(p.main(), p.head(alice))
  const status = await inAlice.client.callTool({ name: 'lane_status', arguments: {} })
  const lanes = (status.structuredContent as { lanes: { name: string; behind: number }[] }).lanes
  assert.deepEqual(
    lanes.map((lane) => [lane.name, lane.behind]),
    [
      ['alice', 0],
      ['bob', 1],
    ],
  )
  const board = await inAlice.client.callTool({ name: 'room_board', arguments: {} })
  assert.notEqual(board.isError, true, text(board))
  const onBoard = board.structuredContent as { lanes: { name: string; behind: number }[]; lock: unknown }
  assert.deepEqual(
    onBoard.lanes.map((lane) => [lane.name, lane.behind]),
    [
      ['alice', 0],
      ['bob', 1],
    ],
    'room_board shows the lanes as lane_status does',
  )
  assert.equal(onBoard.lock, null)
  assert.match(text(board), /LANES \(2\)\n {2}lock: free\n/)
  const brief = await inAlice.client.callTool({ name: 'ctx_brief', arguments: {} })
  assert.match(
    text(brief),
    /\nLane alice:\n- You work in lane alice \(branch lane\/alice\): clean\. Next: nothing to do/,
  )

  await using inMain = await connectMcp(p.repo.path, env)
  const outside = await inMain.client.callTool({ name: 'lane_sync', arguments: {} })
  assert.equal(outside.isError, true)
  assert.match(text(outside), /^not-a-lane: .*\nnext: run sangam sync inside a lane/s)
  assert.ok(bob)
})
