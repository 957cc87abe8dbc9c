import { useEffect, useRef, useState } from 'preact/hooks'
import { html, type View } from '../html.ts'
import { completeMention, type MentionTarget, matchTargets, mentionAt } from './mention-candidates.ts'

type Props = {
  id: string
  label: string
  value: string
  targets: readonly MentionTarget[]
  onInput: (value: string) => void
  onSubmit: () => void
  placeholder?: string
}

/**
 * A textarea that completes `@handle` and `#worktree` from the live targets: ↑/↓ choose, Tab or
 * Enter takes the choice, Esc closes the list. Without a list open, Enter sends and Shift+Enter
 * starts a new line. The list is an ARIA listbox tied to the textarea (combobox pattern).
 */
export function MentionInput(props: Props): View {
  const area = useRef<HTMLTextAreaElement>(null)
  const [open, setOpen] = useState<{ start: number; typed: string; options: MentionTarget[] } | null>(null)
  const [active, setActive] = useState(0)
  const listId = `${props.id}-mentions`

  const refresh = (text: string, caret: number) => {
    const at = mentionAt(text, caret)
    const options = at ? matchTargets(props.targets, at.typed) : []
    setOpen(at && options.length > 0 ? { ...at, options } : null)
    setActive(0)
  }

  // The targets arrive (and change) on their own clock: a mention typed before they came, on a
  // page just opened or a slow machine, gets its list when they do, not only at the next keystroke.
  useEffect(() => {
    const element = area.current
    if (element === null || document.activeElement !== element) return
    refresh(element.value, element.selectionStart ?? element.value.length)
  }, [props.targets])

  const take = (target: MentionTarget) => {
    if (!open) return
    const next = completeMention(props.value, open.start, open.typed, target.name)
    props.onInput(next.text)
    setOpen(null)
    requestAnimationFrame(() => {
      area.current?.focus()
      area.current?.setSelectionRange(next.caret, next.caret)
    })
  }

  const onKeyDown = (event: KeyboardEvent) => {
    if (open) {
      const count = open.options.length
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault()
        setActive((index) => (index + (event.key === 'ArrowDown' ? 1 : count - 1)) % count)
        return
      }
      if (event.key === 'Tab' || event.key === 'Enter') {
        const choice = open.options[active]
        if (choice) {
          event.preventDefault()
          take(choice)
          return
        }
      }
      if (event.key === 'Escape') {
        event.preventDefault()
        event.stopPropagation()
        setOpen(null)
        return
      }
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault()
      props.onSubmit()
    }
  }

  const activeId = open ? `${listId}-${active}` : undefined
  return html`<div class="mention-input">
    <label for=${props.id}>${props.label}</label>
    <textarea
      id=${props.id}
      ref=${area}
      rows="3"
      value=${props.value}
      placeholder=${props.placeholder}
      role="combobox"
      aria-autocomplete="list"
      aria-expanded=${open ? 'true' : 'false'}
      aria-controls=${listId}
      aria-activedescendant=${activeId}
      onInput=${(event: InputEvent) => {
        const target = event.currentTarget as HTMLTextAreaElement
        props.onInput(target.value)
        refresh(target.value, target.selectionStart)
      }}
      onKeyDown=${onKeyDown}
      onBlur=${() => setTimeout(() => setOpen(null), 150)}
    ></textarea>
    <ul id=${listId} role="listbox" class="mention-list" hidden=${!open}>
      ${(open?.options ?? []).map(
        (option, index) => html`<li
          id=${`${listId}-${index}`}
          role="option"
          aria-selected=${index === active ? 'true' : 'false'}
          class=${index === active ? 'active' : ''}
          onMouseDown=${(event: MouseEvent) => {
            event.preventDefault()
            take(option)
          }}
        >
          <span class="mention-name">${option.name}</span> <span class="muted">${option.detail}</span>
        </li>`,
      )}
    </ul>
  </div>`
}
