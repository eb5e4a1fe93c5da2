import { useState } from 'react'
import { useNavigate } from '@tanstack/react-router'
import { useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { authClient } from '../../../lib/auth-client'
import { Button } from '../../../components/ui/button'
import { Field } from '../../../components/ui/field'
import { call } from '../api/organization'

// slugify proposes a slug from the name (the owner may edit it).
export const slugify = (s: string) =>
  s.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 48)

// CreateOrganization makes a shared workspace with the caller as owner and opens its settings.
export function CreateOrganization() {
  const [name, setName] = useState('')
  const [slug, setSlug] = useState('')
  const [edited, setEdited] = useState(false)
  const [busy, setBusy] = useState(false)
  const navigate = useNavigate()
  const qc = useQueryClient()
  async function submit(e: React.FormEvent) {
    e.preventDefault()
    setBusy(true)
    try {
      const org = await call<{ id: string }>(authClient.organization.create({ name: name.trim(), slug: slug || slugify(name) }))
      await qc.invalidateQueries({ queryKey: ['workspaces'] })
      toast.success(`${name.trim()} created`)
      await navigate({ to: '/dashboard/workspace', search: { ws: org.id } })
    } catch (err) {
      toast.error((err as Error).message)
    } finally {
      setBusy(false)
    }
  }
  return (
    <form onSubmit={submit} className="max-w-md space-y-3" aria-label="Create an organization">
      <Field label="Organization name" value={name} required maxLength={100} onChange={(e) => { setName(e.target.value); if (!edited) setSlug(slugify(e.target.value)) }} />
      <Field label="Slug" value={slug} required pattern="[a-z0-9-]+" title="Lower-case letters, digits and dashes" maxLength={48} onChange={(e) => { setEdited(true); setSlug(e.target.value) }} />
      <Button type="submit" disabled={busy || !name.trim()}>
        {busy ? 'Creating…' : 'Create organization'}
      </Button>
    </form>
  )
}
