import { useState } from 'preact/hooks'
import { claimLease, loadLeases, releaseLease } from '../api/endpoints.ts'
import type { Lease, LeaseHolder } from '../api/shapes.ts'
import { html, type View } from '../html.ts'
import { useLive } from '../live/use-live.ts'
import { ErrorNote, Loading } from '../parts/error-note.ts'
import { useNow } from '../parts/use-now.ts'
import { When } from '../parts/when.ts'

/** Who holds what, for how long, with which fencing token; claim and release as the human. */
export function LeasesPage(): View {
  const now = useNow()
  const leases = useLive(loadLeases, ['leases'], 'leases')
  const [busy, setBusy] = useState<string | null>(null)
  const [error, setError] = useState<Error | null>(null)
  const release = async (lease: Lease) => {
    setBusy(lease.pattern)
    setError(null)
    try {
      await releaseLease([lease.pattern])
      leases.reload()
    } catch (failure) {
      setError(failure as Error)
    } finally {
      setBusy(null)
    }
  }
  const rows = [...(leases.data?.leases ?? [])].sort((a, b) => a.expiresAt - b.expiresAt)
  return html`<section aria-labelledby="page-title">
    <h1 id="page-title" tabindex="-1">Leases</h1>
    <${Loading} when=${leases.loading && !leases.data} />
    <${ErrorNote} error=${leases.error ?? error} />
    ${
      leases.data && rows.length === 0
        ? html`<p class="empty">Nobody holds a lease. Claim one below, or with <code>sangam claim 'src/x/**' --reason "…"</code>; agents take one on each file they edit.</p>`
        : null
    }
    ${
      rows.length > 0
        ? html`<table data-testid="leases">
            <thead><tr><th scope="col">Pattern</th><th scope="col">Holder</th><th scope="col">Kind</th><th scope="col">Reason</th><th scope="col">Expires</th><th scope="col">Token</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              ${rows.map(
                (lease) => html`<tr data-row tabindex="-1">
                  <th scope="row" class="mono">${lease.pattern}</th>
                  <td>${holderName(lease.holder)}</td>
                  <td>${lease.kind}</td>
                  <td>${lease.reason}</td>
                  <td><${When} at=${lease.expiresAt} now=${now} /></td>
                  <td class="mono">#${lease.token}</td>
                  <td><button type="button" onClick=${() => release(lease)} disabled=${busy === lease.pattern} aria-label=${`Release ${lease.pattern}`}>${busy === lease.pattern ? 'Releasing…' : 'Release'}</button></td>
                </tr>`,
              )}
            </tbody>
          </table>`
        : null
    }
    <${ClaimForm} onClaimed=${leases.reload} />
    ${
      leases.data && leases.data.history.length > 0
        ? html`<h2>Last 24 hours</h2>
          <ul class="history">
            ${leases.data.history.map(
              (entry) =>
                html`<li><${When} at=${entry.at} now=${now} />: <strong>${entry.action}</strong> <span class="mono">${entry.pattern}</span> (#${entry.token}) held by ${holderName(entry.holder)}${entry.by ? html`, by ${holderName(entry.by)}` : null}${entry.reason ? html` — ${entry.reason}` : null}</li>`,
            )}
          </ul>`
        : null
    }
  </section>`
}

function ClaimForm(props: { onClaimed: () => void }): View {
  const [paths, setPaths] = useState('')
  const [reason, setReason] = useState('')
  const [ttl, setTtl] = useState('')
  const [error, setError] = useState<Error | null>(null)
  const [busy, setBusy] = useState(false)
  const submit = async (event: Event) => {
    event.preventDefault()
    const list = paths.split(/[\s,]+/).filter(Boolean)
    if (list.length === 0 || !reason.trim()) return
    setBusy(true)
    setError(null)
    try {
      await claimLease({ paths: list, reason: reason.trim(), ttl: ttl.trim() })
      setPaths('')
      setReason('')
      props.onClaimed()
    } catch (failure) {
      setError(failure as Error)
    } finally {
      setBusy(false)
    }
  }
  const field = (set: (value: string) => void) => (event: InputEvent) =>
    set((event.currentTarget as HTMLInputElement).value)
  return html`<form class="panel" onSubmit=${submit} aria-labelledby="claim-title">
    <h2 id="claim-title">Claim</h2>
    <div class="row">
      <label class="grow">Paths or globs <input name="paths" value=${paths} onInput=${field(setPaths)} placeholder="src/auth/** docs/api.md" required /></label>
      <label class="grow">Reason <input name="reason" value=${reason} onInput=${field(setReason)} required /></label>
      <label>For <input name="ttl" value=${ttl} onInput=${field(setTtl)} placeholder="2h" size="6" /></label>
      <button type="submit" disabled=${busy}>${busy ? 'Claiming…' : 'Claim'}</button>
    </div>
    <${ErrorNote} error=${error} />
  </form>`
}

export function holderName(holder: LeaseHolder): string {
  if (holder.handle) return `@${holder.handle}`
  const who = holder.human ?? 'someone'
  if (!holder.vendor) return who
  return `${who} (${holder.vendor}${holder.sessionId ? ` ${holder.sessionId.slice(0, 8)}` : ''})`
}
