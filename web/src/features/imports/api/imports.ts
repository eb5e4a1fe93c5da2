import { api } from '../../../lib/api-client'

export interface ImportJob {
  id: string; fileName: string; state: 'queued' | 'running' | 'done' | 'failed'; bytesRead: number; bytesTotal: number; rows: number
  results: { period: { kind: string; start: string; end: string }; rows: number; deepestRank: number; replaced: boolean; warnings: string[] | null }[] | null
  skipped?: { line?: number; record?: number; column?: string; value?: string; expected: string }[]; skippedCount: number; error?: string; errorCode?: string; line?: number; record?: number; column?: string; value?: string
}

// uploadFiles sends files with XMLHttpRequest, whose upload events give a real progress bar.
export function uploadFiles(ws: string, files: File[], fields: Record<string, string>, onProgress: (fraction: number) => void): Promise<ImportJob[]> {
  return new Promise((resolve, reject) => {
    const form = new FormData()
    for (const [k, v] of Object.entries(fields)) if (v) form.append(k, v)
    files.forEach((f) => form.append('files', f, f.name))
    const xhr = new XMLHttpRequest()
    xhr.open('POST', `/api/trends/${encodeURIComponent(ws)}/imports`)
    xhr.withCredentials = true
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total)
    xhr.onload = () => {
      const body = JSON.parse(xhr.responseText || '{}')
      if (xhr.status === 202) resolve(body.jobs)
      else reject(new Error(body.message ?? `Upload failed (${xhr.status})`))
    }
    xhr.onerror = () => reject(new Error('The upload was interrupted'))
    xhr.send(form)
  })
}

// followJob polls a job twice a second until it ends, reporting its progress on the way.
export async function followJob(ws: string, id: string, onUpdate: (j: ImportJob) => void): Promise<ImportJob> {
  for (;;) {
    const job = await api<ImportJob>(`/api/trends/${encodeURIComponent(ws)}/imports/${id}`)
    onUpdate(job)
    if (job.state === 'done' || job.state === 'failed') return job
    await new Promise((r) => setTimeout(r, 500))
  }
}
