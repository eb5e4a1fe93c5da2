import { describe, expect, it } from 'vitest'
import { render } from '@testing-library/react'
import { safeRedirect, useAuth } from './auth'

function Consumer() {
  useAuth()
  return null
}

describe('useAuth', () => {
  it('throws outside its provider', () => {
    expect(() => render(<Consumer />)).toThrow('useAuth must be used within an AuthProvider')
  })
})

describe('safeRedirect', () => {
  it.each([
    ['/dashboard?x=1', '/dashboard?x=1'],
    ['//evil.example', '/dashboard'],
    ['https://evil.example', '/dashboard'],
    ['/\\evil.example', '/dashboard'],
    [undefined, '/dashboard'],
  ])('%s -> %s', (input, want) => {
    expect(safeRedirect(input)).toBe(want)
  })
})
