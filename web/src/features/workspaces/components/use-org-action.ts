import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'

// useOrgAction runs one organization call, says how it went, and refetches the organization's
// data and the workspace list (names, roles and permissions follow every change).
export function useOrgAction<A>(run: (arg: A) => Promise<unknown>, done?: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: run,
    onSuccess: async () => {
      if (done) toast.success(done)
      await Promise.all([qc.invalidateQueries({ queryKey: ['organization'] }), qc.invalidateQueries({ queryKey: ['workspaces'] })])
    },
    onError: (e) => toast.error((e as Error).message),
  })
}

export const selectClass = 'rounded border border-zinc-300 bg-transparent px-2 py-1 text-sm dark:border-zinc-700'
