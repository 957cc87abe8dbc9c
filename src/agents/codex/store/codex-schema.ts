import type { Migration } from '../../../store/migrations.ts'
import { createCodexEndpointTable } from './codex-endpoint-table.ts'

/** Codex's migration step (released: never edit it); `project/store/project-schema.ts` places it. */
export const codexEndpointTable: Migration = {
  version: 17,
  name: 'codex app-server endpoints',
  sql: createCodexEndpointTable,
}
