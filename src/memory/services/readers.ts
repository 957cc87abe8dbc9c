import { claudeReader } from '../../agents/claude/claude-reader.ts'
import { codexReader } from '../../agents/codex/codex-reader.ts'
import { opencodeReader } from '../../agents/opencode/opencode-reader.ts'
import type { TranscriptReader, TranscriptVendor } from '../../agents/transcript-reader.ts'

const readers: Record<TranscriptVendor, TranscriptReader<unknown>> = {
  claude: claudeReader,
  codex: codexReader,
  opencode: opencodeReader,
}

/** The reader of each vendor's transcripts. Readers are pure state machines, so one serves every file. */
export function readerFor(vendor: TranscriptVendor): TranscriptReader<unknown> {
  return readers[vendor]
}
