import { useState } from 'react'
import { authClient } from '../../../lib/auth-client'
import { Button } from '../../../components/ui/button'
import { Field } from '../../../components/ui/field'
import { Card } from '../../../components/ui/states'
import { call, type FullOrganization } from '../api/organization'
import { useOrgAction } from './use-org-action'

// GeneralSection edits the organization's name, slug and logo (organization:update).
export function GeneralSection({ org, manage }: { org: FullOrganization; manage: boolean }) {
  const [name, setName] = useState(org.name)
  const [slug, setSlug] = useState(org.slug)
  const [logo, setLogo] = useState(org.logo ?? '')
  const save = useOrgAction(
    () => call(authClient.organization.update({ organizationId: org.id, data: { name: name.trim(), slug: slug.trim(), logo: logo.trim() || undefined } })),
    'Workspace saved',
  )
  return (
    <Card title="Workspace">
      <form
        className="max-w-md space-y-3"
        onSubmit={(e) => {
          e.preventDefault()
          save.mutate(undefined)
        }}
      >
        <div className="flex items-center gap-3">
          {logo ? <img src={logo} alt="" className="h-10 w-10 rounded object-cover" /> : <span aria-hidden className="flex h-10 w-10 items-center justify-center rounded bg-indigo-100 font-semibold text-indigo-900 dark:bg-indigo-900 dark:text-indigo-100">{org.name.slice(0, 1).toUpperCase()}</span>}
          <span className="text-sm text-zinc-600 dark:text-zinc-400">Shared with every member of the organization.</span>
        </div>
        <Field label="Name" value={name} required maxLength={100} disabled={!manage} onChange={(e) => setName(e.target.value)} />
        <Field label="Slug" value={slug} required pattern="[a-z0-9-]+" maxLength={48} disabled={!manage} onChange={(e) => setSlug(e.target.value)} />
        <Field label="Logo URL" type="url" value={logo} placeholder="https://…" maxLength={2048} disabled={!manage} onChange={(e) => setLogo(e.target.value)} />
        {manage && (
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save'}
          </Button>
        )}
      </form>
    </Card>
  )
}
