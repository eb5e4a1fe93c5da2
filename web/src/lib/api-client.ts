// A thin fetch wrapper for our JSON API: cookies included, errors carry the server's message.
// It has no side effects (no toasts, no redirects): callers decide what a failure means.
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message)
  }
}

// Sellers read errors in words: a server fault or a lost connection gets a sentence saying what
// to do, never a status code or the server's internals; a 4xx keeps the server's own message,
// which names what was wrong with the request.
export const SERVER_FAULT = 'The server could not answer this time (a fault on our side, not yours). Try again in a moment.'
export const OFFLINE = 'Could not reach sellertrends: check your connection, then try again.'

export function errorInWords(status: number, message: unknown): string {
  if (status >= 500 || typeof message !== 'string' || message.trim() === '') return status >= 500 ? SERVER_FAULT : `The request was refused (${status}).`
  return message
}

export async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  let res: Response
  try {
    res = await fetch(path, {
      credentials: 'include',
      ...init,
      headers: { accept: 'application/json', ...(init.body && !(init.body instanceof FormData) ? { 'content-type': 'application/json' } : {}), ...init.headers },
    })
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e
    throw new ApiError(OFFLINE, 0)
  }
  if (res.status === 204) return undefined as T
  const body = await res.json().catch(() => null)
  if (!res.ok) throw new ApiError(errorInWords(res.status, body?.message), res.status, body?.code)
  return body as T
}

export function qs(params: Record<string, string | number | boolean | undefined | null | string[]>): string {
  const u = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === '') continue
    if (Array.isArray(v)) v.forEach((x) => u.append(k, x))
    else u.set(k, String(v))
  }
  const s = u.toString()
  return s ? `?${s}` : ''
}
