import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react'

const WIDTH = 288 // px; kept inside the viewport on a 390 px phone

// InfoTip is the (i) beside a measure's name: a real button, so it opens by click, tap, Enter or
// Space; Escape, a second press or a tap elsewhere closes it. The note is fixed-positioned and
// clamped to the viewport, so it never widens the page on a phone.
export function InfoTip({ label, children }: { label: string; children: ReactNode }) {
  const [open, setOpen] = useState(false)
  const [pos, setPos] = useState({ left: 8, top: 0 })
  const id = useId()
  const wrap = useRef<HTMLSpanElement>(null)
  const button = useRef<HTMLButtonElement>(null)
  // place keeps the note under its button, inside the viewport; it follows scrolling (a table
  // scrolled sideways, the page scrolled by focusing the button) instead of closing on it.
  const place = useCallback(() => {
    if (!button.current) return
    const r = button.current.getBoundingClientRect()
    const width = Math.min(WIDTH, window.innerWidth - 16)
    setPos({ left: Math.max(8, Math.min(r.left + r.width / 2 - width / 2, window.innerWidth - width - 8)), top: r.bottom + 6 })
  }, [])
  useLayoutEffect(() => {
    if (open) place()
  }, [open, place])
  useEffect(() => {
    if (!open) return
    const outside = (e: Event) => !wrap.current?.contains(e.target as Node) && setOpen(false)
    const esc = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return
      setOpen(false)
      button.current?.focus()
    }
    document.addEventListener('pointerdown', outside)
    document.addEventListener('keydown', esc)
    window.addEventListener('scroll', place, true)
    window.addEventListener('resize', place)
    return () => {
      document.removeEventListener('pointerdown', outside)
      document.removeEventListener('keydown', esc)
      window.removeEventListener('scroll', place, true)
      window.removeEventListener('resize', place)
    }
  }, [open, place])
  return (
    <span ref={wrap} className="inline-block align-middle">
      <button
        ref={button}
        type="button"
        aria-label={`What is ${label}?`}
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen((o) => !o)}
        className="ml-1 inline-flex h-5 w-5 items-center justify-center rounded-full border border-zinc-400 text-[11px] font-semibold leading-none text-zinc-600 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-zinc-500 dark:text-zinc-300 dark:hover:bg-zinc-800"
      >
        i
      </button>
      {open && (
        <span
          id={id}
          role="note"
          aria-label={label}
          style={{ left: pos.left, top: pos.top, width: `min(${WIDTH}px, calc(100vw - 16px))` }}
          className="fixed z-50 block rounded-md border border-zinc-200 bg-white p-3 text-left text-xs font-normal normal-case leading-relaxed text-zinc-700 shadow-lg dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200"
        >
          <span className="mb-1 block font-semibold">{label}</span>
          {children}
        </span>
      )}
    </span>
  )
}
