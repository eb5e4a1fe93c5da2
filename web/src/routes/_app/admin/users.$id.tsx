import { createFileRoute } from '@tanstack/react-router'
import { UserPage } from '../../../features/admin/components/user-page'

export const Route = createFileRoute('/_app/admin/users/$id')({ component: UserRoute })

function UserRoute() {
  const { id } = Route.useParams()
  return <UserPage key={id} id={id} />
}
