import { afterEach, describe, expect, it, vi } from 'vitest'
import { api, ApiError, OFFLINE, SERVER_FAULT } from './api-client'

afterEach(() => vi.unstubAllGlobals())

const answer = (status: number, body: unknown) => vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(body), { status })))

describe('api errors in words', () => {
  it('keeps a 4xx message, which names what was wrong', async () => {
    answer(400, { code: 'BAD_REQUEST', message: 'window: must be one of 1, 4, 13, 52, got "2"' })
    await expect(api('/x')).rejects.toMatchObject({ status: 400, message: 'window: must be one of 1, 4, 13, 52, got "2"' })
  })
  it('never shows a server fault’s own text (“database is locked”)', async () => {
    answer(500, { message: 'database is locked' })
    const err = (await api('/x').catch((e: unknown) => e)) as ApiError
    expect(err.message).toBe(SERVER_FAULT)
    expect(err.message).not.toContain('locked')
  })
  it('says the connection failed when the server cannot be reached', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => { throw new TypeError('Failed to fetch') }))
    await expect(api('/x')).rejects.toMatchObject({ message: OFFLINE })
  })
})
