import { createFileRoute } from '@tanstack/react-router'
import { WorkspaceSettingsPage } from '../../../features/workspaces/components/workspace-settings'

// Settings of the selected workspace (?ws=): an organization's, or creating one.
export const Route = createFileRoute('/_app/dashboard/workspace')({ component: WorkspaceSettingsPage })
