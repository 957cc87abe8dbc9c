import type { Checked } from '../../options/core/option-type.ts'

/** What a semantic task's file is written from. */
export interface TaskFileInput {
  readonly task: string
  readonly lane: string
  readonly mainBranch: string
  /** The latest main the lane was reset to (the base ref). */
  readonly base: string
  /** The lane's work as one commit (the snapshot ref). */
  readonly snapshot: string
  /** Where the lane's work started from (its last seen main), when known. */
  readonly lastSeenMain: string | null
  readonly validationFile: string
  /** `git diff <last seen main>..<snapshot>`: what the lane did. */
  readonly snapshotDiff: string
  /** The project's check command, run on the candidate before main moves; null when none is set. */
  readonly checkCommand: string | null
}

/**
 * The task file: why it exists, the behavioural-union goal, stop and ask on a contradiction, the
 * snapshot diff (fenced by a backtick run longer than any inside it), what the validation report
 * must hold, and how to finish.
 */
export function taskFileText(input: TaskFileInput): string {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(input.snapshotDiff) + 1))
  return [
    `# sangam semantic task ${input.task}`,
    '',
    `- Lane: ${input.lane}`,
    `- Task: ${input.task}`,
    `- Latest ${input.mainBranch} (base ref refs/sangam/bases/${input.task}): ${input.base}`,
    `- Last seen ${input.mainBranch}: ${input.lastSeenMain ?? 'unknown'}`,
    `- Snapshot of this lane's work (refs/sangam/snapshots/${input.task}): ${input.snapshot}`,
    `- Validation report: ${input.validationFile}`,
    '',
    '## Why',
    '',
    `Git could not merge this lane's work with the latest \`${input.mainBranch}\` cleanly, so \`sangam sync\``,
    `reset this lane to the latest \`${input.mainBranch}\` and kept the work under the snapshot ref above.`,
    'The integration lock is yours until you publish: other lanes wait.',
    '',
    '## Goal',
    '',
    `Make this lane the behavioural union of the latest \`${input.mainBranch}\` and the snapshot: everything`,
    `\`${input.mainBranch}\` now does, plus everything the snapshot did, re-expressed on the latest code (its`,
    'names, its structure), not pasted over it. If the latest main already covers the snapshot, say so in',
    'the report and make an explicit no-op commit (`git commit --allow-empty`).',
    '',
    '## Merge discipline',
    '',
    '- Read both sides before writing: the snapshot diff below and what changed on main since.',
    '- Where the two genuinely contradict (both cannot hold), stop and ask the user which behaviour wins;',
    '  write the question and the answer in the report. Never pick silently.',
    '- If you were in the middle of other work, pause it at a safe point first.',
    `- Never move \`${input.mainBranch}\` by hand (no merge, reset or push of it); only \`sangam sync\` publishes.`,
    '',
    '## Snapshot diff',
    '',
    `${fence}diff`,
    input.snapshotDiff.trimEnd(),
    fence,
    '',
    '## Validation',
    '',
    `Write the report to ${input.validationFile}. It must hold:`,
    '',
    `- the behaviours of the latest \`${input.mainBranch}\` you checked, and those of the snapshot;`,
    '- how the combined behaviour was checked, the tests you designed and why they are enough;',
    '- a `## Commands` section: one line per command you ran, the command in backticks and its',
    '  result (a word: passed, failed, ok, exit N; or what it printed, after an arrow), e.g.',
    '  ``- `npm test` → passed (42 tests)`` or ``- `grep -c TODO src/app.js` → 0``;',
    '- any contradiction and the resolution the user approved; the risk that remains.',
    input.checkCommand === null
      ? ''
      : `\nBefore ${input.mainBranch} moves, sangam also runs the project's check \`${input.checkCommand}\` on your commit.`,
    '',
    '## Completion',
    '',
    '1. Implement the union in this lane and commit it (the worktree must be clean).',
    '2. Write the validation report.',
    '3. Run `sangam sync` in this lane: it checks the task, the refs, the commit and the report, then publishes.',
    '',
  ].join('\n')
}

/** The words pasted into the lane's agent (never submitted: the human or agent presses Enter). */
export function taskPrompt(input: {
  lane: string
  task: string
  file: string
  validationFile: string
}): string {
  return [
    `sangam: lane ${input.lane} has a semantic merge task (${input.task}). Git could not merge this lane with the latest main,`,
    `so the lane was reset to main and your work kept under refs/sangam/snapshots/${input.task}. Read ${input.file}:`,
    'make the lane the behavioural union of main and your snapshot, stop and ask the user on a genuine contradiction,',
    `commit, write the validation report to ${input.validationFile}, then run sangam sync.`,
  ].join(' ')
}

const minimumReportChars = 40
const commandInLine = /`([^`\n]+)`/
const resultWord =
  /\b(pass(?:ed|es)?|fail(?:ed|s)?|ok|succeeded|exit(?:ed)?(?: with)?(?: code)? \d+|error)\b/i
/** `→ 1`, `-> 3 lines`, `=> []`: what the command printed, after an arrow (D308). */
const arrowValue = /(?:→|->|=>)\s*\S/

/**
 * A validation report is accepted when it says something (40 characters at least) and names at
 * least one command it ran (in backticks) with its result: a result word (passed, failed, ok,
 * exit N…) or, after an arrow, what it printed (`- \`grep -c x f\` → 1`). A refusal says which
 * of the two is missing, naming the command when there is one.
 */
export function checkValidationReport(text: string): Checked<string> {
  const trimmed = text.trim()
  if (trimmed.length < minimumReportChars)
    return {
      ok: false,
      problem: `is too short (${trimmed.length} characters; at least ${minimumReportChars})`,
    }
  const lines = trimmed.split('\n').filter((line) => commandInLine.test(line))
  if (lines.some((line) => hasResult(line))) return { ok: true, value: trimmed }
  const named = lines[0] === undefined ? null : commandInLine.exec(lines[0])?.[1]
  if (named === undefined || named === null)
    return {
      ok: false,
      problem:
        'names no command it ran: add a "## Commands" section, one line per command in backticks with its result (- `npm test` → passed)',
    }
  return {
    ok: false,
    problem: `names \`${named}\` but not its result: after the command, on its line, add a result word (passed, failed, ok, exit N) or what it printed after an arrow (- \`${named}\` → passed, or → 1)`,
  }
}

/** A result on the line after its backticked command: a result word, or an arrow and a value. */
function hasResult(line: string): boolean {
  const command = commandInLine.exec(line)
  if (command === null) return false
  const after = line.slice(command.index + command[0].length)
  return resultWord.test(after) || arrowValue.test(after)
}

function longestBacktickRun(text: string): number {
  let longest = 0
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length)
  return longest
}
