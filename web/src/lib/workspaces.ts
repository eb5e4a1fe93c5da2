import type { Workspace } from './trends-types'

// can tells whether the caller's role in a workspace grants an action on one of its resources
// (dataset: read, import, delete; watchlist: read, write; billing: read, manage). The server
// decides; screens ask this only to offer what will be allowed. An older server that sends no
// permissions: the own workspace grants all, the demo only reads.
export function can(w: Workspace | undefined, resource: 'dataset' | 'watchlist' | 'billing', action: string): boolean {
  if (!w) return false
  if (!w.permissions) return !w.readOnly || action === 'read'
  return (w.permissions[resource] ?? []).includes(action)
}

// The resources and actions a custom organization role may be granted (the server's statements).
export const roleResources: Record<string, string[]> = {
  organization: ['update', 'delete'],
  member: ['create', 'update', 'delete'],
  invitation: ['create', 'cancel'],
  team: ['create', 'update', 'delete'],
  ac: ['create', 'read', 'update', 'delete'],
  dataset: ['read', 'import', 'delete'],
  watchlist: ['read', 'write'],
  billing: ['read', 'manage'],
}

export const builtInRoles = ['owner', 'admin', 'member'] as const
