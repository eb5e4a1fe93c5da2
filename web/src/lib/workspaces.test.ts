import { describe, expect, it } from 'vitest'
import { can } from './workspaces'
import type { Workspace } from './trends-types'

const ws = (over: Partial<Workspace>): Workspace => ({ id: 'w', name: 'W', kind: 'organization', role: 'member', demo: false, readOnly: false, ...over })

describe('what a role lets the screens offer', () => {
  it('follows the permissions the server sent', () => {
    const member = ws({ permissions: { dataset: ['read'], watchlist: ['read'], billing: [] } })
    expect(can(member, 'dataset', 'read')).toBe(true)
    expect(can(member, 'dataset', 'import')).toBe(false)
    expect(can(member, 'dataset', 'delete')).toBe(false)
    expect(can(member, 'watchlist', 'write')).toBe(false)
    const importer = ws({ role: 'importer', permissions: { dataset: ['read', 'import'] } })
    expect(can(importer, 'dataset', 'import')).toBe(true)
    expect(can(importer, 'billing', 'read')).toBe(false)
  })
  it('without permissions (an older server): the own workspace does all, the demo reads', () => {
    expect(can(ws({ kind: 'personal', role: 'owner' }), 'dataset', 'delete')).toBe(true)
    expect(can(ws({ kind: 'demo', demo: true, readOnly: true }), 'dataset', 'import')).toBe(false)
    expect(can(ws({ kind: 'demo', demo: true, readOnly: true }), 'dataset', 'read')).toBe(true)
    expect(can(undefined, 'dataset', 'read')).toBe(false)
  })
})
