import { describe, expect, it } from 'vitest'
import { act, fireEvent, render, screen } from '@testing-library/react'
import { Change, Growth, MeasureInfo } from './change'
import { MEASURES } from '../../lib/measures'

describe('Change', () => {
  it('shows the rank move and the change in estimated searches', () => {
    const { container } = render(<Change then={1210} now={300} />)
    expect(container.textContent).toContain('rank 1,210 → 300')
    expect(container.textContent).toContain('▲ +227%')
    expect(container.textContent).toContain('est. searches')
  })
  it('shows a fall in red words with a down arrow', () => {
    const { container } = render(<Change then={300} now={1210} />)
    expect(container.textContent).toContain('▼ −69%')
  })
  it('says “no change” for an unchanged rank, never ▲ 0', () => {
    const { container } = render(<Change then={42} now={42} />)
    expect(container.textContent).toContain('no change')
    expect(container.textContent).not.toMatch(/[▲▼]/)
  })
  it('shows a dash when the term was absent then', () => {
    const { container } = render(<Change then={null} now={42} />)
    expect(container.textContent).toBe('–')
  })
  it('shows a log2 measure as growth in estimated searches', () => {
    const { container } = render(<Growth log2={1} suffix="last year" />)
    expect(container.textContent).toContain('▲ +80%') // 2^0.85 − 1
  })
})

describe('MeasureInfo', () => {
  it('opens by click, closes by Escape (focus back on the button) and by a tap elsewhere', () => {
    render(<><MeasureInfo measure="closerRatio" /><p>elsewhere</p></>)
    const button = screen.getByRole('button', { name: 'What is Closer ratio?' })
    expect(button.getAttribute('aria-expanded')).toBe('false')
    expect(screen.queryByRole('note')).toBeNull()
    fireEvent.click(button)
    expect(button.getAttribute('aria-expanded')).toBe('true')
    expect(screen.getByRole('note').textContent).toContain(MEASURES.closerRatio.text)
    act(() => {
      fireEvent.keyDown(document, { key: 'Escape' })
    })
    expect(screen.queryByRole('note')).toBeNull()
    expect(document.activeElement).toBe(button)
    fireEvent.click(button)
    act(() => {
      fireEvent.pointerDown(screen.getByText('elsewhere'))
    })
    expect(screen.queryByRole('note')).toBeNull()
  })
  it('has a text for every measure the issue names', () => {
    for (const m of ['breakout', 'comingUp', 'seasonality', 'clickConcentration', 'conversionConcentration', 'closerRatio'] as const) {
      expect(MEASURES[m].text.length).toBeGreaterThan(40)
    }
  })
})
