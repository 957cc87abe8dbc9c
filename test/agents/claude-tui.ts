import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { agentClisDir, agentClisIn } from './agent-clis.ts'
import type { AgentLab } from './agent-lab.ts'
import { openTmuxPane, type TmuxPane } from './tmux-pane.ts'

/**
 * The real Claude Code in its interactive TUI, in a tmux pane of its own, started with its first
 * prompt in argv so nobody types (agentlab's recipe, /work/shared/reference/real-agents.md §3.5):
 * what a user who has used Claude Code here has in its config is written first (onboarding done,
 * the repository trusted, the API key approved, bypass mode accepted), and the TUI runs with
 * `--dangerously-skip-permissions` (as root that needs IS_SANDBOX=1), so its Bash tool runs
 * unprompted. Its hooks are whatever `install-hooks` put in the repository.
 */
export function openClaudeTui(lab: AgentLab, prompt: string, name = 'claude-tui'): TmuxPane {
  trustRepository(lab)
  const dir = join(lab.home, name)
  mkdirSync(dir, { recursive: true })
  const claude = agentClisIn(agentClisDir(process.env)).claude
  return openTmuxPane(dir, lab.repo.path, `${claude} --dangerously-skip-permissions ${shellWord(prompt)}`, {
    ...lab.env,
    IS_SANDBOX: '1',
  })
}

function trustRepository(lab: AgentLab): void {
  const file = join(lab.env.CLAUDE_CONFIG_DIR ?? '', '.claude.json')
  const config = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {}
  const projects = (config.projects ?? {}) as Record<string, Record<string, unknown>>
  projects[lab.repo.path] = {
    ...(projects[lab.repo.path] ?? {}),
    hasTrustDialogAccepted: true,
    hasCompletedProjectOnboarding: true,
  }
  writeFileSync(
    file,
    JSON.stringify({
      ...config,
      hasCompletedOnboarding: true,
      theme: 'dark',
      bypassPermissionsModeAccepted: true,
      customApiKeyResponses: { approved: [(lab.env.ANTHROPIC_API_KEY ?? '').slice(-20)], rejected: [] },
      projects,
    }),
  )
}

function shellWord(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`
}
