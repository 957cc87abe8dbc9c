import { useEffect } from 'preact/hooks'
import { routes } from './routes.ts'

export const shortcuts: readonly { keys: string; does: string }[] = [
  { keys: '1 – 7', does: 'open Now, Board, Room, Timeline, Leases, Lanes, Activity' },
  { keys: 'j / k', does: 'next / previous row (message, card, event, lease)' },
  { keys: 'Enter', does: 'on an event: open or close its turn' },
  { keys: '/', does: 'search the timeline, or write in the room' },
  { keys: '@ / #', does: 'in the composer: complete a handle or a worktree (↑ ↓, Tab)' },
  { keys: '?', does: 'show or hide these keys' },
  { keys: 'Esc', does: 'close this list, leave a text field' },
]

/** The page-wide keys. Ignored while typing in a field (except Esc, which leaves it). */
export function useShortcuts(actions: { toggleHelp: () => void; closeHelp: () => void }): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return
      const target = event.target as HTMLElement | null
      const typing = target?.closest('input, textarea, select, [contenteditable="true"]')
      if (event.key === 'Escape') {
        actions.closeHelp()
        if (typing) (typing as HTMLElement).blur()
        return
      }
      if (typing) return
      const route = routes.find((candidate) => candidate.key === event.key)
      if (route) {
        event.preventDefault()
        location.hash = `#/${route.id}`
        return
      }
      if (event.key === '?') {
        event.preventDefault()
        actions.toggleHelp()
        return
      }
      if (event.key === '/') {
        const field =
          document.querySelector<HTMLElement>('main [data-primary]') ??
          document.querySelector<HTMLElement>('main textarea')
        if (field) {
          event.preventDefault()
          field.focus()
        }
        return
      }
      if (event.key === 'j' || event.key === 'k') {
        event.preventDefault()
        moveRow(event.key === 'j' ? 1 : -1)
      }
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [actions])
}

function moveRow(step: number): void {
  const rows = [...document.querySelectorAll<HTMLElement>('main [data-row]')]
  if (rows.length === 0) return
  const at = rows.findIndex((row) => row === document.activeElement || row.contains(document.activeElement))
  const next =
    rows[at < 0 ? (step > 0 ? 0 : rows.length - 1) : Math.min(rows.length - 1, Math.max(0, at + step))]
  next?.focus()
  next?.scrollIntoView({ block: 'nearest' })
}
