import { describe, expect, it } from 'vitest'
import { ApiError } from './api-client'
import { isPlanLimit } from './plan-limit'

describe('isPlanLimit', () => {
  it('knows a plan refusal by its code, not by its status', () => {
    expect(isPlanLimit(new ApiError('Exports are not included in the Free plan. Upgrade to Pro to get them.', 403, 'PLAN_LIMIT_REACHED'))).toBe(true)
    expect(isPlanLimit(new ApiError('The demo workspace is read-only', 403, 'FORBIDDEN'))).toBe(false)
    expect(isPlanLimit(new Error('PLAN_LIMIT_REACHED'))).toBe(false)
  })
})
