import { useState } from 'react'
import { Link } from '@tanstack/react-router'
import { Card, Empty, ErrorState, Skeleton } from '../../../components/ui/states'
import { Button } from '../../../components/ui/button'
import { fmtDate, fmtInt } from '../../../lib/format'
import { pageSize, useUsers, type AdminUser, type UsersQuery } from '../api'
import { CreateUserForm } from './create-user-form'
import { FiguresCard } from './figures-card'

const columns: { key: UsersQuery['sortBy']; label: string; className?: string }[] = [
  { key: 'name', label: 'Name' },
  { key: 'email', label: 'Email', className: 'hidden sm:table-cell' },
  { key: 'role', label: 'Role' },
  { key: 'createdAt', label: 'Joined', className: 'hidden md:table-cell' },
]

// The admin's users table: search by email or name, sort by a column, page through, with totals.
export function UsersPage() {
  const [q, setQ] = useState<UsersQuery>({ search: '', field: 'email', sortBy: 'createdAt', dir: 'desc', page: 0 })
  const users = useUsers(q)
  const sort = (key: UsersQuery['sortBy']) =>
    setQ({ ...q, sortBy: key, dir: q.sortBy === key && q.dir === 'asc' ? 'desc' : 'asc', page: 0 })
  const total = users.data?.total ?? 0
  const first = q.page * pageSize
  return (
    <section aria-labelledby="admin-users-title" className="space-y-4">
      <h1 id="admin-users-title" className="text-2xl font-semibold">Users</h1>
      <FiguresCard />
      <form role="search" className="flex flex-wrap items-end gap-2" onSubmit={(e) => e.preventDefault()}>
        <label className="flex-1 text-sm font-medium">
          Search
          <input
            type="search"
            value={q.search}
            onChange={(e) => setQ({ ...q, search: e.target.value, page: 0 })}
            placeholder={q.field === 'email' ? 'part of an email' : 'part of a name'}
            className="mt-1 block w-full min-w-0 rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
          />
        </label>
        <label className="text-sm font-medium">
          In
          <select
            value={q.field}
            onChange={(e) => setQ({ ...q, field: e.target.value as UsersQuery['field'], page: 0 })}
            className="mt-1 block rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
          >
            <option value="email">Email</option>
            <option value="name">Name</option>
          </select>
        </label>
      </form>
      {users.isPending ? (
        <Skeleton rows={6} label="Loading users" />
      ) : users.error ? (
        <ErrorState error={users.error} retry={() => users.refetch()} />
      ) : users.data.users.length === 0 ? (
        <Empty title="No users match">Try part of the address, or search in names.</Empty>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Users, sorted by {q.sortBy} {q.dir === 'asc' ? 'ascending' : 'descending'}</caption>
            <thead className="border-b border-zinc-200 dark:border-zinc-800">
              <tr>
                {columns.map((c) => (
                  <th key={c.key} scope="col" className={`py-2 pr-3 ${c.className ?? ''}`} aria-sort={q.sortBy === c.key ? (q.dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
                    <button type="button" onClick={() => sort(c.key)} className="font-semibold hover:underline">
                      {c.label} {q.sortBy === c.key ? (q.dir === 'asc' ? '↑' : '↓') : ''}
                    </button>
                  </th>
                ))}
                <th scope="col" className="py-2">Status</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
              {users.data.users.map((u) => <UserRow key={u.id} u={u} />)}
            </tbody>
          </table>
        </div>
      )}
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <p aria-live="polite">
          {total === 0 ? 'No users' : `${fmtInt(first + 1)}–${fmtInt(Math.min(first + pageSize, total))} of ${fmtInt(total)} users`}
        </p>
        <div className="flex gap-2">
          <Button variant="secondary" disabled={q.page === 0} onClick={() => setQ({ ...q, page: q.page - 1 })}>Previous</Button>
          <Button variant="secondary" disabled={first + pageSize >= total} onClick={() => setQ({ ...q, page: q.page + 1 })}>Next</Button>
        </div>
      </div>
      <Card title="Add a user">
        <CreateUserForm />
      </Card>
    </section>
  )
}

function UserRow({ u }: { u: AdminUser }) {
  return (
    <tr>
      <td className="py-2 pr-3">
        <Link to="/admin/users/$id" params={{ id: u.id }} className="font-medium text-indigo-700 hover:underline dark:text-indigo-300">
          {u.name || '(no name)'}
        </Link>
        <span className="block text-xs text-zinc-500 sm:hidden">{u.email}</span>
      </td>
      <td className="hidden py-2 pr-3 sm:table-cell">{u.email}</td>
      <td className="py-2 pr-3">{u.role || 'user'}</td>
      <td className="hidden py-2 pr-3 md:table-cell">{fmtDate(String(u.createdAt))}</td>
      <td className="py-2">
        {u.banned ? <span className="rounded bg-red-100 px-1.5 text-xs text-red-900 dark:bg-red-900 dark:text-red-100">banned</span> : <span className="text-xs text-zinc-500">active</span>}
      </td>
    </tr>
  )
}
