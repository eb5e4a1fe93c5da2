import { createFileRoute } from '@tanstack/react-router'
import { SignInPage, type SignInView } from '../../features/auth/components/sign-in-page'

const views: SignInView[] = ['sign-in', 'sign-up', 'forgot', 'reset']

export interface SignInSearch {
  view?: SignInView
  redirect?: string
  token?: string
  error?: string
}

export const Route = createFileRoute('/_unauthenticated/sign-in')({
  validateSearch: (s: Record<string, unknown>): SignInSearch => ({
    view: views.includes(s.view as SignInView) ? (s.view as SignInView) : undefined,
    redirect: typeof s.redirect === 'string' ? s.redirect : undefined,
    token: typeof s.token === 'string' ? s.token : undefined,
    error: typeof s.error === 'string' ? s.error : undefined,
  }),
  component: SignInRoute,
})

function SignInRoute() {
  const search = Route.useSearch()
  return <SignInPage {...search} />
}
