import assert from 'node:assert/strict'
import { test } from 'node:test'
import { agentMarkersIn, readEnvironment } from './environment.ts'

test("an agent's variables mark the process; a person's own settings of the vendors' CLIs do not", () => {
  assert.deepEqual(
    agentMarkersIn({
      HOME: '/home/asha',
      CODEX_HOME: '/home/asha/.codex',
      CODEX_API_KEY: 'x',
      CODEX_CA_CERTIFICATE: '/etc/ca.pem',
      CLAUDE_CONFIG_DIR: '/home/asha/.claude',
      CLAUDE_CODE_USE_BEDROCK: '1',
      SANGAM_HOME: '/home/asha/.sangam',
    }),
    [],
  )
  assert.deepEqual(
    agentMarkersIn({
      CLAUDECODE: '1',
      CODEX_MANAGED_BY_NPM: '1',
      CODEX_SANDBOX_NETWORK_DISABLED: '1',
      CODEX_SOMETHING_NEW: 'x',
      SANGAM_DELIVERY_TURN: '7',
      CODEX_THREAD_ID: '',
    }),
    [
      'CLAUDECODE',
      'CODEX_MANAGED_BY_NPM',
      'CODEX_SANDBOX_NETWORK_DISABLED',
      'CODEX_SOMETHING_NEW',
      'SANGAM_DELIVERY_TURN',
    ],
  )
  assert.deepEqual(readEnvironment({ CODEX_THREAD_ID: 't-1' }).agentMarkers, ['CODEX_THREAD_ID'])
})
