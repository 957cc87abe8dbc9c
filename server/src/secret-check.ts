import { describeSecretKinds } from '../../src/secrets/core/free-text-rule.ts'
import { findSecret, type WireShape } from '../../src/secrets/core/wire-fields.ts'
import { Refusal } from './refusal.ts'

/**
 * Defence in depth: the server stores no record or request whose free-text fields hold a secret
 * the scrubber knows, whatever the client (an older sangam that did not check the field, or a
 * broken one). A client of this version never sends one: it refuses typed secrets and redacts
 * context before anything leaves. `INVALID_REQUEST`, which every client already answers by
 * keeping that one record on its machine. The refusal names the field and the kind, not the secret.
 */
export function refuseSecrets(shape: WireShape, value: unknown, where = ''): void {
  const found = findSecret(shape, value)
  if (found === null) return
  throw new Refusal(
    'INVALID_REQUEST',
    `${where}${found.path} (${found.field.label}) holds ${describeSecretKinds(found.kinds)}; this server stores no secret`,
  )
}
