import { claudeReader } from '../../transcripts/claude/claude-reader.ts'
import { codexReader } from '../../transcripts/codex/codex-reader.ts'
import type { TranscriptReader, TranscriptVendor } from '../../transcripts/transcript-reader.ts'

const readers: Record<TranscriptVendor, TranscriptReader<unknown>> = {
  claude: claudeReader,
  codex: codexReader,
}

/** The reader of each vendor's transcripts. Readers are pure state machines, so one serves every file. */
export function readerFor(vendor: TranscriptVendor): TranscriptReader<unknown> {
  return readers[vendor]
}
