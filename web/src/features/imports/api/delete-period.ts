import { api } from '../../../lib/api-client'
import { datasetBase } from '../../../lib/datasets'

export const deletePeriod = (ws: string, ds: number, start: string) => api<void>(`${datasetBase(ws, ds)}/periods/${start.slice(0, 10)}`, { method: 'DELETE' })
