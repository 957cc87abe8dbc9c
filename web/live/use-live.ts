import { createContext } from 'preact'
import { useCallback, useContext, useEffect, useRef, useState } from 'preact/hooks'
import { everything, type FeedStatus, type LiveFeed } from './live-feed.ts'

export const FeedContext = createContext<LiveFeed | null>(null)

export type Live<T> = {
  data: T | null
  error: Error | null
  loading: boolean
  reload: () => void
}

/**
 * Loads once, then again whenever the feed says one of `topics` changed. A change that arrives
 * while a load is running queues exactly one more load after it, so a burst of changes costs two
 * requests, not one per change, and the last answer is always at least as new as the last change.
 */
export function useLive<T>(load: () => Promise<T>, topics: readonly string[], key: string): Live<T> {
  const feed = useContext(FeedContext)
  const [state, setState] = useState<{ data: T | null; error: Error | null; loading: boolean }>({
    data: null,
    error: null,
    loading: true,
  })
  const running = useRef(false)
  const again = useRef(false)
  const current = useRef(load)
  current.current = load
  const alive = useRef(true)

  const run = useCallback(async () => {
    if (running.current) {
      again.current = true
      return
    }
    running.current = true
    do {
      again.current = false
      try {
        const data = await current.current()
        if (alive.current) setState({ data, error: null, loading: false })
      } catch (error) {
        if (alive.current)
          setState((previous) => ({ data: previous.data, error: asError(error), loading: false }))
      }
    } while (again.current && alive.current)
    running.current = false
  }, [])

  useEffect(() => {
    alive.current = true
    setState((previous) => ({ ...previous, loading: true }))
    void run()
    return () => {
      alive.current = false
    }
  }, [key, run])

  const topicKey = topics.join(',')
  useEffect(() => {
    if (!feed) return undefined
    const wanted = new Set(topicKey.split(','))
    return feed.subscribe((changed) => {
      if (changed.some((topic) => topic === everything || wanted.has(topic))) void run()
    })
  }, [feed, topicKey, run])

  return { ...state, reload: () => void run() }
}

export function useFeedStatus(): FeedStatus {
  const feed = useContext(FeedContext)
  const [status, setStatus] = useState<FeedStatus>(feed?.status ?? 'closed')
  useEffect(() => {
    if (!feed) return undefined
    const unsubscribe = feed.onStatus(setStatus)
    // The stream may have opened between the first render and this effect: catch up.
    setStatus(feed.status)
    return unsubscribe
  }, [feed])
  return status
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error))
}
