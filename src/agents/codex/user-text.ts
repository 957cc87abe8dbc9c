/**
 * Who really wrote a piece of `user`-role text in a Codex rollout (formats.md B2.9). Codex puts
 * much more than the person's words into user messages: AGENTS.md, the environment, plugin lists,
 * abort notices, subagent reports, hook prompts and IDE context around the real request. This
 * module sorts one text into what the person said (`human`),
 * context worth recalling that is nobody's words (`system`), a shell command the person ran
 * (`shell`), and the rest, which is dropped as injected.
 */
export interface UserText {
  readonly human: string
  readonly system: string
  readonly shell: string
}

const nothing: UserText = { human: '', system: '', shell: '' }

/** Injected blocks that are pure setup: instructions, environment, skill and plugin listings. */
const injectedTags = new Set([
  'user_instructions',
  'environment_context',
  'recommended_plugins',
  'skill',
  'skills_instructions',
  'plugins_instructions',
  'apps_instructions',
  'permissions instructions',
  'collaboration_mode',
  'INSTRUCTIONS',
])

/**
 * Injected blocks that carry something worth recalling: the person interrupted a turn, a subagent
 * reported back, the review UI passed findings, a hook added a prompt.
 */
const systemTags = new Set(['turn_aborted', 'subagent_notification', 'user_action', 'hook_prompt'])

/** The IDE and desktop clients wrap the person's request in context and put it after this line. */
const requestMarker = '## My request for Codex:'

/** Context headings the desktop review UI sends; worth recalling as review output. */
const reviewHeadings = ['# Review findings', '# Diff comments']

/**
 * `origin` says where the text was found. A `message` (a user-role response item) is what reached
 * the model, injected blocks included. A `prompt` (`user_message`, `item_completed` UserMessage) is
 * what was submitted: Codex never puts injected blocks there (formats.md B2.9), so a prompt that
 * looks like a tag is taken as the person's; wrappers still apply. The prompt a `/review` preset
 * writes (openai/codex `review_prompts.rs`, "Review the current code changes…") is the person's
 * command in the CLI's words, like a slash command: `human`, so the turn it starts is theirs and
 * a search finds it (docs/decisions.md).
 */
export function classifyUserText(raw: string, origin: 'message' | 'prompt'): UserText {
  const value = raw.trim()
  if (value === '') return nothing
  if (origin === 'message' && value.startsWith('<')) return classifyTagged(value)
  if (origin === 'message' && value.startsWith('# AGENTS.md instructions for ')) return nothing
  if (value.startsWith('#')) {
    const marker = value.indexOf(requestMarker)
    if (marker !== -1) {
      const context = value.slice(0, marker).trim()
      return {
        human: value.slice(marker + requestMarker.length).trim(),
        system: isReviewContext(context) ? context : '',
        shell: '',
      }
    }
    if (isReviewContext(value)) return { ...nothing, system: value }
  }
  return { ...nothing, human: value }
}

/** Joins the classification of several parts of one message. */
export function mergeUserTexts(parts: readonly UserText[]): UserText {
  if (parts.length === 1) return parts[0] ?? nothing
  const join = (pick: (part: UserText) => string): string =>
    parts
      .map(pick)
      .filter((piece) => piece !== '')
      .join('\n\n')
  return {
    human: join((part) => part.human),
    system: join((part) => part.system),
    shell: join((part) => part.shell),
  }
}

export function isEmptyUserText(value: UserText): boolean {
  return value.human === '' && value.system === '' && value.shell === ''
}

/** The `<cwd>` of an `<environment_context>` block: the only cwd a legacy rollout records. */
export function environmentCwd(raw: string): string | null {
  if (!raw.trimStart().startsWith('<environment_context>')) return null
  const match = /<cwd>([^<]+)<\/cwd>/.exec(raw)
  return match?.[1]?.trim() || null
}

function classifyTagged(value: string): UserText {
  const end = value.indexOf('>')
  if (end === -1) return { ...nothing, human: value }
  const tag = value.slice(1, end).split(/[\s=]/, 1)[0] ?? ''
  const fullTag = value.slice(1, end)
  if (tag === 'image' || tag === '/image') return nothing // markers around an attached image
  if (injectedTags.has(tag) || injectedTags.has(fullTag)) return nothing
  if (systemTags.has(tag)) return { ...nothing, system: value }
  if (tag === 'user_shell_command') return { ...nothing, shell: value }
  // A whole message wrapped in one unknown tag is another injected block; the person's own words
  // reach the rollout in a second form (user_message or item_completed) that is captured instead.
  if (/^[A-Za-z_][\w -]*$/.test(tag) && value.endsWith(`</${fullTag}>`)) return nothing
  return { ...nothing, human: value }
}

function isReviewContext(value: string): boolean {
  return reviewHeadings.some((heading) => value.startsWith(heading))
}
