import { claudeReader } from '../../agents/claude/claude-reader.ts'
import { codexReader } from '../../agents/codex/codex-reader.ts'
import { geminiReader } from '../../agents/gemini/gemini-reader.ts'
import type { TranscriptReader, TranscriptVendor } from '../../agents/transcript-reader.ts'

const readers: Record<TranscriptVendor, TranscriptReader<unknown>> = {
  claude: claudeReader,
  codex: codexReader,
  gemini: geminiReader,
}

/** The reader of each vendor's transcripts. Readers are pure state machines, so one serves every file. */
export function readerFor(vendor: TranscriptVendor): TranscriptReader<unknown> {
  return readers[vendor]
}
