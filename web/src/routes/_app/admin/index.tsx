import { createFileRoute } from '@tanstack/react-router'
import { UsersPage } from '../../../features/admin/components/users-page'

export const Route = createFileRoute('/_app/admin/')({ component: UsersPage })
