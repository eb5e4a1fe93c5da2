import { queryOptions } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'

// The caller's alert digest settings (GET/PUT /api/alerts/settings).
export type AlertFrequency = 'import' | 'weekly' | 'off'
export interface AlertSettings { frequency: AlertFrequency; threshold: number; email: string }

const path = '/api/alerts/settings'

export const alertSettingsQuery = () => queryOptions({ queryKey: ['alert-settings'], queryFn: () => api<AlertSettings>(path) })

export const saveAlertSettings = (s: Pick<AlertSettings, 'frequency' | 'threshold'>) =>
  api<AlertSettings>(path, { method: 'PUT', body: JSON.stringify(s) })
