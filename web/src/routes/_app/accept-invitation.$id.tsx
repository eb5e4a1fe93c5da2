import { createFileRoute } from '@tanstack/react-router'
import { AcceptInvitationPage } from '../../features/workspaces/components/accept-invitation'

// The invitation mail's link; /_app signs the visitor in (or up) first and returns here.
export const Route = createFileRoute('/_app/accept-invitation/$id')({ component: AcceptInvitationRoute })

function AcceptInvitationRoute() {
  const { id } = Route.useParams()
  return <AcceptInvitationPage id={id} />
}
