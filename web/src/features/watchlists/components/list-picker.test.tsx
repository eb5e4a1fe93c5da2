import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { AddToTeamList, ListPicker } from './list-picker'

// The teams come from the official client's organization.listTeams.
const listTeams = vi.hoisted(() => vi.fn())
vi.mock('../../../lib/auth-client', () => ({ authClient: { organization: { listTeams } } }))

function wrap(ui: ReactNode) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  return render(<QueryClientProvider client={qc}>{ui}</QueryClientProvider>)
}

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('team watchlists', () => {
  it('offers the organization’s list and each team’s, and says which was picked', async () => {
    listTeams.mockResolvedValue({ data: [{ id: 't1', name: 'Growth', organizationId: 'o1', createdAt: '2026-01-01T00:00:00Z' }], error: null })
    const onChange = vi.fn()
    wrap(<ListPicker org="o1" onChange={onChange} />)
    const select = (await screen.findByLabelText('List')) as HTMLSelectElement
    expect([...select.options].map((o) => o.textContent)).toEqual(['The organization’s', 'Team Growth'])
    fireEvent.change(select, { target: { value: 't1' } })
    expect(onChange).toHaveBeenCalledWith('t1')
    fireEvent.change(select, { target: { value: '' } })
    expect(onChange).toHaveBeenLastCalledWith(undefined)
    expect(listTeams).toHaveBeenCalledWith({ query: { organizationId: 'o1' } })
  })

  it('adds to the team’s list with ?team=', async () => {
    const fetch = vi.fn<(url: string, init?: RequestInit) => Promise<Response>>(async () => json({ id: 'i1', kind: 'brand', value: 'Acme', createdAt: '2026-01-01T00:00:00Z' }, 201))
    vi.stubGlobal('fetch', fetch)
    wrap(<AddToTeamList ws="o1" team="t1" />)
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'brand' } })
    fireEvent.change(screen.getByLabelText('Term, ASIN or brand'), { target: { value: ' Acme ' } })
    fireEvent.click(screen.getByRole('button', { name: 'Add' }))
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1))
    const [url, init] = fetch.mock.calls[0]
    expect(String(url)).toBe('/api/workspaces/o1/watchlist?team=t1')
    expect(init?.method).toBe('POST')
    expect(JSON.parse(String(init?.body))).toEqual({ kind: 'brand', value: 'Acme' })
  })
})
