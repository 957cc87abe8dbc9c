import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { test } from 'node:test'
import { projectSchema } from './project-schema.ts'

/**
 * Every released step of the project schema, pinned: its number, its name and the SHA-256 of its
 * SQL, as they were when the steps still lived in one list in `store/migrations.ts`. A database
 * out there ran these very steps; editing one would leave it different from a new one. A new step
 * adds a row here.
 */
const released: readonly (readonly [version: number, name: string, sha256: string])[] = [
  [1, 'memory', '31fe877e08b5caf9d00f028111134725eadaf2c1022e3e1f2687ba26968a9049'],
  [2, 'leases', '1f2f5a26a9c59e74f4240ba9507105d00326198e65bcd997212d08f1a8cc52af'],
  [3, 'sync', 'd956a473a392b9570c3ac0e93a181c8ef99706de4550420cc3bd159e0ae7d1ab'],
  [4, 'lease pattern regex', '4044be1af0e95124aed232cc69e55b35e82f481915aabcd2106f9d1911dd0346'],
  [5, 'thread ordinals', '0fd1db5a33cef9e24fe5dc22ea6170b1ec587d4fd8622a55d7117e48db949a0c'],
  [6, 'record outbox', '13b9d77dbd33390d8f07e032f321055dcc3778342b47803dbf9fed6e28e03bfa'],
  [7, 'room presence', '336191f43ea00658c67c50ab2052a849ea5785ecbd256a0c26ff6022fb348f52'],
  [8, 'room messages and threads', 'adf878f8b7dd975e2993d27ab97ea6ea05655315f29a7da71ce862fabebc92a8'],
  [9, 'room overlap picture', 'da738dcc1e2e99e85f5e2c48c9c2ffcde2a119a95ba99a3e8a9f6f0c63d7f337'],
  [10, 'team option changes', 'a47998247e502821fc20cad5dcba9e4a815af2a6a76be8a6aed8c91041885fe8'],
  [11, 'ready memo and conflict threads', 'd06b818e6fb6572828c2fd9bf282639ea08391222b5c90d320297de139770dac'],
  [12, 'room context cursor', '5f42d0a5d681e55b3c95f4136f3a5d7aeda9a799484c6cd8a35582efe4a06e0e'],
  [13, 'room context alerts', '553af12d47b4e18b1a879be114f195f0982e7375d7569e920627ad18fe9843cc'],
  [14, 'room worktree states', '8860ad274f6be0d01d776ebde81a12b85f92819b475cf05f59689aa59a0f5a5d'],
  [15, 'delivery ledger and turns', '061507bfecb38222f4ab6df5de703e2ce3aed34b82444f924c13cf63e05b71bd'],
  [17, 'codex app-server endpoints', '9081677bd26f46623eceff3c1583487f7f8624737ae953a903ddcb30eef5e0eb'],
  [18, 'lanes and the integration lock', '5622f32f6dd2aa5e1f3933e82eeb9ccb4b0be61fc1a7db60d1e1c83b9dbc6d84'],
  [
    20,
    'message authors; unknown senders and thread participants in the delivery ledger',
    'c3b832881ad8004d0596b6cfa1dfde107a0c7446662cb40ebdc9dc20ef697636',
  ],
  [
    23,
    'the main sangam last moved, and the team lock last seen',
    '36c67d0961fe083051ac96fc37c1c446f8d9f2272f43e3aab977399b9381c858',
  ],
  [26, 'sync push and apply times', '745b5017fcb2a45feac35b56ba85dd76e209613ff887dc5e8ec5b90e2d58eb87'],
  [
    27,
    'machine names and shared integration events',
    '0797acea6461e8ef8da45bc18bf404d9aa93fe2aee364c5d49072315dc0989c0',
  ],
  [
    28,
    'when the overlap picture was made',
    '2d64cd2c2190dbed2fcbfdb7e61a2f7473d24f1b082096858d71c4b744fa76de',
  ],
  [31, 'the person at each machine', 'bacc1d9867dcb5efdbf24506d24853065df31b58ddf7350b98dd208bf2e53d56'],
]

test('the project schema is the released steps, in order, each byte for byte', () => {
  assert.deepEqual(
    projectSchema.map((step) => [
      step.version,
      step.name,
      createHash('sha256').update(step.sql).digest('hex'),
    ]),
    released,
  )
})

test('the project schema numbers its steps upwards', () => {
  const versions = projectSchema.map((step) => step.version)
  assert.deepEqual(
    versions,
    [...new Set(versions)].sort((a, b) => a - b),
  )
})
