/**
 * Which of Claude Code's primitives can start a turn in an idle, open session, with the real
 * Claude Code 2.1.332 TUI offline (issue 25, D370, D386). sangam uses an `asyncRewake` Stop hook
 * (measured by bench/claude-wake.ts). This probe drives the other documented one, a `SessionStart`
 * hook's `hookSpecificOutput.watchPaths` with a `FileChanged` hook, in two forms: a plain command
 * hook that exits 2 with the message on stderr, and the same with `async` + `asyncRewake`. For
 * each it times the file's write → the `FileChanged` hook's start, and → a model request carrying
 * the message (a turn), if one comes within `WAIT_MS`. It also reads, from the session's first
 * model request, whether Claude Code offers the model a `SendMessage` or `ListAgents` tool (the
 * third primitive is a tool the model calls between Claude Code sessions: a process outside them
 * has no documented way to send through it).
 *
 *   npm run build && node --import tsx bench/claude-wake-primitives.ts
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { agentClisDir, checkAgentClis, claudeVersion, ensureAgentClis } from '../test/agents/agent-clis.ts'
import { openAgentLab } from '../test/agents/agent-lab.ts'
import { openClaudeTui } from '../test/agents/claude-tui.ts'
import { until } from '../test/agents/lab-daemon.ts'
import { isIsolated, preflight, runInNamespace, startDnsSink } from '../test/agents/network-namespace.ts'
import { tmpDir } from '../test/helpers/tmp-git-repo.ts'

const waitMs = Number(process.env.WAIT_MS ?? 15_000)

async function main(): Promise<number> {
  if (process.argv.includes('--inside')) return inside()
  const check = preflight()
  if (!check.ok) {
    process.stdout.write(`claude-wake-primitives: not run: ${check.reason}\n`)
    return 1
  }
  const dir = agentClisDir(process.env)
  const clis = ensureAgentClis(dir, (line) => process.stderr.write(`claude-wake-primitives: ${line}\n`))
  await using scratch = tmpDir('sangam-bench-primitives-version-')
  checkAgentClis(clis, scratch.path)
  return runInNamespace([process.execPath, '--import', 'tsx', import.meta.filename, '--inside'], {
    ...process.env,
    SANGAM_AGENT_CLIS: dir,
  })
}

interface Variant {
  readonly name: string
  readonly fileChanged: Record<string, unknown>
}

async function inside(): Promise<number> {
  if (!isIsolated()) throw new Error('--inside, but this process is not in an isolated network namespace')
  const dns = await startDnsSink()
  const lines: string[] = [`Claude Code ${claudeVersion}, TUI under tmux, offline; wait ${waitMs} ms per try`]
  try {
    const variants: Variant[] = [
      { name: 'FileChanged, command hook, exit 2', fileChanged: {} },
      { name: 'FileChanged, async + asyncRewake, exit 2', fileChanged: { async: true, asyncRewake: true } },
    ]
    for (const variant of variants) lines.push(...(await probe(variant)))
  } finally {
    await dns.close()
  }
  process.stdout.write(`${lines.join('\n')}\n`)
  if (dns.lookups.length > 0) {
    process.stderr.write(`the CLI tried to reach the network: ${[...new Set(dns.lookups)].join(', ')}\n`)
    return 1
  }
  return 0
}

async function probe(variant: Variant): Promise<string[]> {
  await using lab = await openAgentLab()
  const dir = join(lab.home, 'probe')
  mkdirSync(dir, { recursive: true })
  const watched = join(dir, 'wake.txt')
  writeFileSync(watched, 'nothing yet\n')
  const log = join(dir, 'hooks.jsonl')
  const hook = (body: string) => ({
    type: 'command',
    command: process.execPath,
    args: ['-e', body],
  })
  const note = 'FILECHANGED-NOTE please look'
  const settings = {
    hooks: {
      SessionStart: [
        {
          hooks: [
            hook(
              `require('fs').appendFileSync(${JSON.stringify(log)}, JSON.stringify({ event: 'SessionStart', at: Date.now() }) + '\\n');` +
                `process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', watchPaths: [${JSON.stringify(watched)}] } }))`,
            ),
          ],
        },
      ],
      FileChanged: [
        {
          matcher: 'wake.txt',
          hooks: [
            {
              ...hook(
                `let input = ''; process.stdin.on('data', (c) => { input += c }); process.stdin.on('end', () => {` +
                  `require('fs').appendFileSync(${JSON.stringify(log)}, JSON.stringify({ event: 'FileChanged', at: Date.now(), input }) + '\\n');` +
                  `process.stderr.write(${JSON.stringify(note)}); process.exit(2) })`,
              ),
              ...variant.fileChanged,
            },
          ],
        },
      ],
    },
  }
  mkdirSync(join(lab.repo.path, '.claude'), { recursive: true })
  writeFileSync(join(lab.repo.path, '.claude', 'settings.local.json'), JSON.stringify(settings, null, 2))
  lab.anthropic.script([{ text: 'PROBE-REPLY done.' }])
  await using pane = openClaudeTui(lab, 'You are the probed session.')
  const context = async () => `pane:\n${pane.screen()}\nhooks:\n${safeRead(log)}`
  await until(
    'the first turn',
    async () => lab.anthropic.requests.find((r) => r.kind === 'main') ?? null,
    120_000,
    context,
  )
  const first = lab.anthropic.requests.find((r) => r.kind === 'main')
  const tools = toolNames(first?.body)
  // At rest: the reply shown, the turn over.
  await until(
    'the session at rest',
    async () => (pane.screen().includes('PROBE-REPLY') ? true : null),
    60_000,
    context,
  )
  await sleep(2000)
  const started = events(log).some((event) => event.event === 'SessionStart')
  const writtenAt = Date.now()
  appendFileSync(watched, `changed at ${writtenAt}\n`)
  const deadline = writtenAt + waitMs
  let firedAt: number | null = null
  let turnAt: number | null = null
  while (Date.now() < deadline && turnAt === null) {
    firedAt ??= events(log).find((event) => event.event === 'FileChanged')?.at ?? null
    turnAt =
      lab.anthropic.requests.find((r) => r.kind === 'main' && JSON.stringify(r.body).includes(note))?.at ??
      null
    await sleep(50)
  }
  firedAt ??= events(log).find((event) => event.event === 'FileChanged')?.at ?? null
  return [
    `${variant.name}:`,
    `  SessionStart hook ran: ${started}; model's tools include SendMessage: ${tools.includes('SendMessage')}, ListAgents: ${tools.includes('ListAgents')} (${tools.length} tools: ${tools.join(', ')})`,
    `  write → FileChanged hook: ${firedAt === null ? `not within ${waitMs} ms` : `${firedAt - writtenAt} ms`}`,
    `  write → model request with its stderr (a turn): ${turnAt === null ? `none within ${waitMs} ms` : `${turnAt - writtenAt} ms`}`,
    `  screen after: ${JSON.stringify(lastLines(pane.screen(), 6))}`,
  ]
}

function toolNames(body: unknown): string[] {
  const tools = (body as { tools?: unknown } | null)?.tools
  if (!Array.isArray(tools)) return []
  return tools.map((tool) => String((tool as { name?: unknown }).name))
}

function events(file: string): { event: string; at: number }[] {
  return safeRead(file)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { event: string; at: number })
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return ''
  }
}

function lastLines(text: string, n: number): string {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(-n)
    .join(' | ')
}

process.exitCode = await main()
