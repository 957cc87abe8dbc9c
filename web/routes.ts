import type { View } from './html.ts'
import { ActivityPage } from './pages/activity-page.ts'
import { BoardPage } from './pages/board-page.ts'
import { LanesPage } from './pages/lanes-page.ts'
import { LeasesPage } from './pages/leases-page.ts'
import { NowPage } from './pages/now-page.ts'
import { RoomPage } from './pages/room-page.ts'
import { TimelinePage } from './pages/timeline-page.ts'

export type Route = {
  id: string
  title: string
  /** The key that opens it (docs/ui.md, "Keys"). */
  key: string
  page: (props: { query: URLSearchParams }) => View
}

/** The pages, in the order of the navigation bar and of keys 1–7. */
export const routes: readonly Route[] = [
  { id: 'now', title: 'Now', key: '1', page: NowPage },
  { id: 'board', title: 'Board', key: '2', page: BoardPage },
  { id: 'room', title: 'Room', key: '3', page: RoomPage },
  { id: 'timeline', title: 'Timeline', key: '4', page: TimelinePage },
  { id: 'leases', title: 'Leases', key: '5', page: LeasesPage },
  { id: 'lanes', title: 'Lanes', key: '6', page: LanesPage },
  { id: 'activity', title: 'Activity', key: '7', page: ActivityPage },
]

/** `#/room?thread=x` → the room route and its query; anything unknown is Now. */
export function parseHash(hash: string): { route: Route; query: URLSearchParams } {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?')
  const route = routes.find((candidate) => candidate.id === path) ?? (routes[0] as Route)
  return { route, query: new URLSearchParams(query) }
}
