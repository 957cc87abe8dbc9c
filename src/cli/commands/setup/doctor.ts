import { runningDaemon } from '../../../config/daemon-discovery.ts'
import { daemonFile, projectDir } from '../../../config/data-paths.ts'
import { resolveHuman } from '../../../identity/services/human.ts'
import { describeCheckoutStore, otherStoresOfCheckout } from '../../../identity/services/project-identity.ts'
import { describeHooks } from '../../../install/describe-hooks.ts'
import { hooksSection } from '../../../install/hooks-section.ts'
import {
  type CaptureSection,
  captureSection,
  type FileReport,
} from '../../../memory/services/capture-report.ts'
import { checkTranscripts } from '../../../memory/services/check.ts'
import { describeOtherProjects, otherProjectFiles } from '../../../memory/services/other-projects.ts'
import { backfill } from '../../../memory/services/project-capture.ts'
import { type HookEntries, hookEntries } from '../../../own-files/services/hook-entries.ts'
import { openProject } from '../../../project/services/open-project.ts'
import { openDatabaseFile } from '../../../project/store/project-database.ts'
import { parseSince } from '../../../shared/time-window.ts'
import { describeTeamServer, teamServerSection } from '../../../sync/services/team-server-section.ts'
import type { CommandContext, CommandResult, CommandRun } from '../../command.ts'
import { createProgressBar } from '../../progress.ts'
import type { doctorInput } from './inputs.ts'

export const run: CommandRun<typeof doctorInput> = async (ctx, _args, options) => {
  if (options.transcripts !== undefined) return checkFiles(ctx, options.transcripts)
  const since = parseSince(options.since, ctx.clock.now())
  const project = openProject(ctx.env, ctx.cwd, ctx.clock, { createStore: false })
  try {
    const bar = createProgressBar(ctx.stderr, ctx.clock, 'doctor: catching up')
    await backfill(project, { since, log: ctx.log, onProgress: (progress) => bar.update(progress) })
    bar.done()
    const capture = captureSection(project.db, (row) => row.inScope === true && row.mtime >= since)
    const hooks = await hooksSection({
      root: project.repo.root,
      commonDir: project.repo.commonDir,
      projectDir: projectDir(ctx.env.sangamHome, project.repo.projectId),
      claudeConfigDir: ctx.env.claudeConfigDir,
      codexHome: ctx.env.codexHome,
      geminiDir: ctx.env.geminiDir,
      opencodeConfigDir: ctx.env.opencodeConfigDir,
      entries: currentEntries(ctx.cliEntry),
      codexBin: 'codex',
      timeoutMs: 30_000,
    })
    const daemon = runningDaemon(daemonFile(ctx.env.sangamHome, project.repo.projectId))
    const otherStores = otherStoresOfCheckout(ctx.env.sangamHome, project.repo, ctx.clock.now())
    const teamServer = await teamServerSection({
      db: project.db,
      projectDir: projectDir(ctx.env.sangamHome, project.repo.projectId),
      daemonRunning: daemon !== null,
      clock: ctx.clock,
      timeoutMs: 5_000,
    })
    const json = {
      project: { id: project.repo.projectId, root: project.repo.root, human: project.human },
      adopted: project.adoption?.adopted.projectId ?? null,
      otherStores: otherStores.map((store) => ({
        projectId: store.projectId,
        database: store.database,
        contents: store.contents,
        problem: store.problem,
      })),
      window: { since: new Date(since).toISOString() },
      daemon: daemon ? { running: true, ...daemon } : { running: false },
      sections: [capture, hooks, teamServer],
      otherProjects: otherProjectFiles(project.db, since),
    }
    const head = [
      `project ${json.project.id} (${json.project.root}), human ${json.project.human}`,
      `window  since ${json.window.since}`,
      `daemon  ${daemon ? `running (pid ${daemon.pid}, since ${daemon.startedAt})` : 'not running'}`,
      ...(json.adopted === null
        ? []
        : [`adopted ${json.adopted}, the store this checkout used before its id was recorded`]),
      ...otherStores.map(
        (store) =>
          `other store of this checkout, not in use: ${describeCheckoutStore(store)}; sangam init --adopt ${store.projectId} makes it this checkout's project`,
      ),
    ]
    const others =
      json.otherProjects.length === 0
        ? []
        : [
            `ignored ${json.otherProjects.length} transcript(s) of other projects in the window:`,
            ...describeOtherProjects(json.otherProjects, '  '),
          ]
    return {
      json,
      text: [
        ...head,
        ...describeCapture(capture),
        ...others,
        ...describeHooks(hooks),
        ...describeTeamServer(teamServer),
      ].join('\n'),
    }
  } finally {
    project.close()
  }
}

/** This sangam's hook entries, or null when its `dist/hooks/` is missing (then nothing is outdated). */
function currentEntries(cliEntry: string): HookEntries | null {
  try {
    return hookEntries(cliEntry)
  } catch {
    return null
  }
}

async function checkFiles(ctx: CommandContext, files: readonly string[]): Promise<CommandResult> {
  const check = await checkTranscripts(files, {
    cwd: ctx.cwd,
    clock: ctx.clock,
    log: ctx.log,
    author: resolveHuman(ctx.env, null),
    openScratch: () => openDatabaseFile(':memory:'),
  })
  const json = {
    project: null,
    window: null,
    daemon: null,
    sections: [check.capture],
    rejected: check.rejected,
  }
  const rejected = check.rejected.map((file) => `  not checked: ${file.path}: ${file.reason}`)
  return { json, text: [...describeCapture(check.capture), ...rejected].join('\n') }
}

function describeCapture(section: CaptureSection): string[] {
  const t = section.totals
  return [
    `capture ${section.status}: ${t.files} file(s), ${t.lines} line(s) = ${t.captured} captured + ${t.skipped} skipped + ${t.unknown} unknown + ${t.unparseable} unparseable; ${t.events} event(s)`,
    ...section.files.map(describeFile),
    ...section.notes.map((note) => `  note: ${note}`),
  ]
}

function describeFile(file: FileReport): string {
  const reasons = Object.entries(file.skipReasons)
    .map(([reason, count]) => `${reason} ${count}`)
    .join(', ')
  const shapes = file.unknownShapes.map((shape) => `${shape.recordType} ×${shape.count}`).join(', ')
  return [
    `  ${file.vendor} ${file.path}${file.present ? '' : ' (gone)'}`,
    `    ${file.lines} line(s) = ${file.captured} captured + ${file.skipped} skipped + ${file.unknown} unknown + ${file.unparseable} unparseable; ${file.events} event(s)`,
    reasons ? `    skipped: ${reasons}` : null,
    shapes ? `    unknown: ${shapes}` : null,
    file.pendingBytes > 0 ? `    ${file.pendingBytes} byte(s) pending after offset ${file.offset}` : null,
  ]
    .filter((line): line is string => line !== null)
    .join('\n')
}
