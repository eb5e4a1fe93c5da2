import { createFileRoute } from '@tanstack/react-router'
import { ImportsPage } from '../../../features/imports/components/imports-page'

export const Route = createFileRoute('/_app/dashboard/imports')({ component: ImportsPage })
