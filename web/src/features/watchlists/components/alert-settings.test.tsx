import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { AlertSettingsCard } from './alert-settings'

function renderCard() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  return render(
    <QueryClientProvider client={qc}>
      <AlertSettingsCard />
    </QueryClientProvider>,
  )
}

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('AlertSettingsCard', () => {
  it('shows the saved settings and saves the changed ones', async () => {
    const fetch = vi.fn(async (_url: string, init?: RequestInit) =>
      init?.method === 'PUT' ? json({ ...JSON.parse(String(init.body)), email: 'ann@example.com' }) : json({ frequency: 'import', threshold: 20, email: 'ann@example.com' }),
    )
    vi.stubGlobal('fetch', fetch)
    renderCard()
    expect(await screen.findByText(/sent to ann@example.com/)).toBeTruthy()
    expect((screen.getByLabelText(/After each import/) as HTMLInputElement).checked).toBe(true)
    const threshold = screen.getByLabelText('List rank moves of at least (%)') as HTMLInputElement
    expect(threshold.value).toBe('20')

    fireEvent.click(screen.getByLabelText(/Once a week/))
    fireEvent.change(threshold, { target: { value: '35' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save alert settings' }))
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2))
    const [url, init] = fetch.mock.calls[1]
    expect(url).toBe('/api/alerts/settings')
    expect(init?.method).toBe('PUT')
    expect(JSON.parse(String(init?.body))).toEqual({ frequency: 'weekly', threshold: 35 })
  })

  it('refuses a threshold out of range before asking the server', async () => {
    const fetch = vi.fn(async () => json({ frequency: 'import', threshold: 20, email: 'ann@example.com' }))
    vi.stubGlobal('fetch', fetch)
    renderCard()
    const threshold = (await screen.findByLabelText('List rank moves of at least (%)')) as HTMLInputElement
    fireEvent.change(threshold, { target: { value: '0' } })
    expect(screen.getByRole('alert').textContent).toBe('A whole percent from 1 to 500')
    expect((screen.getByRole('button', { name: 'Save alert settings' }) as HTMLButtonElement).disabled).toBe(true)
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('says in words when the settings cannot be read', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json({ message: 'Unauthorized' }, 401)))
    renderCard()
    expect((await screen.findByRole('alert')).textContent).toContain('Unauthorized')
  })
})
