import { useEffect, useState } from 'preact/hooks'

/** The time, ticking every `everyMs`, so relative times ("3 min ago") stay true on an open page. */
export function useNow(everyMs = 15_000): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs)
    return () => clearInterval(timer)
  }, [everyMs])
  return now
}
