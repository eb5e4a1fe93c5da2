import { createFileRoute } from '@tanstack/react-router'
import { Overview } from '../../../features/trends/components/overview'

export const Route = createFileRoute('/_app/dashboard/')({ component: Overview })
