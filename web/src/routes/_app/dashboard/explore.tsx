import { createFileRoute } from '@tanstack/react-router'
import { Explore, validateExploreSearch } from '../../../features/trends/components/explore'

export const Route = createFileRoute('/_app/dashboard/explore')({
  validateSearch: validateExploreSearch,
  component: Explore,
})
