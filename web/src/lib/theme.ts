import { useSyncExternalStore } from 'react'
import { THEMES, type Theme } from '../config/constants'

// The theme is read and saved through the server's two server functions; the server renders the
// saved class into <html> so a reload never flashes the wrong theme.
async function callServerFn<T>(id: string, body?: unknown): Promise<T> {
  const res = await fetch(`/_serverFn/${id}?createServerFn`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  })
  if (!res.ok) throw new Error(await res.text())
  return (await res.json()) as T
}

export async function getTheme(): Promise<Theme> {
  const { theme } = await callServerFn<{ theme: Theme }>('getTheme')
  return theme
}

export async function setTheme(theme: Theme): Promise<Theme> {
  if (!THEMES.includes(theme)) throw new Error(`unknown theme ${theme}`)
  const saved = await callServerFn<{ theme: Theme }>('setTheme', { data: theme })
  applyTheme(saved.theme)
  return saved.theme
}

export function currentTheme(): Theme {
  return document.documentElement.classList.contains('dark') ? 'dark' : 'light'
}

export function applyTheme(theme: Theme) {
  const root = document.documentElement
  root.classList.remove(...THEMES)
  root.classList.add(theme)
}

// useTheme follows the <html> class, so charts drawn on canvas (which cannot use CSS dark:
// variants) redraw in the new colours the moment the theme changes.
export function useTheme(): Theme {
  return useSyncExternalStore(subscribeTheme, currentTheme, () => 'light' as Theme)
}

function subscribeTheme(onChange: () => void): () => void {
  const obs = new MutationObserver(onChange)
  obs.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] })
  return () => obs.disconnect()
}
