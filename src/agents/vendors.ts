import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import { isVendorName, type VendorName } from '../shared/vendor-names.ts'
import type { AgentVendor, VendorDelivery, VendorHomes } from './agent-vendor.ts'
import { claudeVendor } from './claude/claude-vendor.ts'
import { codexVendor } from './codex/codex-vendor.ts'
import { geminiVendor } from './gemini/gemini-vendor.ts'
import { opencodeVendor } from './opencode/opencode-vendor.ts'
import type { TranscriptRoot } from './transcript-locations.ts'

/**
 * Every agent vendor sangam serves, one line each. A vendor is a folder of src/agents/, its name
 * in shared/vendor-names.ts, its line here and its reader's line in transcript-readers.ts; the
 * compiler asks for both lines once the name is listed, and `vendors.test.ts` for the folder.
 */
export const vendors: Readonly<Record<VendorName, AgentVendor>> = {
  claude: claudeVendor,
  codex: codexVendor,
  gemini: geminiVendor,
  opencode: opencodeVendor,
}

/** The vendor of a stored name. */
export function vendorFor(name: VendorName): AgentVendor {
  return vendors[name]
}

/** The vendor a name from outside (argv, a payload, a row) names, or null when none does. */
export function vendorNamed(name: unknown): AgentVendor | null {
  return isVendorName(name) ? vendors[name] : null
}

/**
 * How delivery continues a vendor's sessions. Delivery names only vendors that have it
 * (`deliveryVendors`, kept equal by vendors.test.ts), so asking of another is a fault.
 */
export function deliveryOf(name: VendorName): VendorDelivery {
  const delivery = vendors[name].delivery
  if (delivery === null)
    throw new SangamError(
      ErrorCode.VendorCliUnavailable,
      `sangam does not deliver to ${vendors[name].displayName} sessions yet (docs/vendors/)`,
    )
  return delivery
}

/** Every vendor's transcript roots, under its own directory (`$CLAUDE_CONFIG_DIR`, `$CODEX_HOME`). */
export function transcriptRoots(homes: VendorHomes): TranscriptRoot[] {
  return Object.values(vendors).flatMap((vendor) => vendor.transcriptRoots(homes))
}
