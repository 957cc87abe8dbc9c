import type { VendorName } from '../shared/vendor-names.ts'
import { claudeReader } from './claude/claude-reader.ts'
import { codexReader } from './codex/codex-reader.ts'
import { geminiReader } from './gemini/gemini-reader.ts'
import { opencodeReader } from './opencode/opencode-reader.ts'
import type { TranscriptReader } from './transcript-reader.ts'

/**
 * The transcript reader of each vendor, one line each. Apart from the descriptors of vendors.ts
 * because a reader brings the secret scrubber with it, which the hooks' bundles (the descriptors'
 * main users on the hot path) must not load.
 */
const readers: Readonly<Record<VendorName, TranscriptReader<unknown>>> = {
  claude: claudeReader,
  codex: codexReader,
  gemini: geminiReader,
  opencode: opencodeReader,
}

/** The reader of a vendor's transcripts. Readers are pure state machines, so one serves every file. */
export function readerFor(vendor: VendorName): TranscriptReader<unknown> {
  return readers[vendor]
}
