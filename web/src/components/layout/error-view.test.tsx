import { describe, expect, it } from 'vitest'
import { fireEvent, render, screen } from '@testing-library/react'
import { ErrorView } from './error-view'

describe('ErrorView', () => {
  it('toggles the error message', () => {
    render(<ErrorView error={new Error('boom')} reset={() => {}} info={{ componentStack: '' }} />)
    expect(screen.getByText('Something went wrong!')).toBeTruthy()
    expect(screen.queryByText('boom')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Show Error' }))
    expect(screen.getByText('boom')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Hide Error' }))
    expect(screen.queryByText('boom')).toBeNull()
  })
})
