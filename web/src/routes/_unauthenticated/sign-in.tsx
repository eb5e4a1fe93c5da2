import { createFileRoute } from '@tanstack/react-router'
import { SignInPage, type SignInView } from '../../features/auth/components/sign-in-page'

const views: SignInView[] = ['sign-in', 'sign-up', 'forgot', 'reset']

export interface SignInSearch {
  view?: SignInView
  redirect?: string
  token?: string
  error?: string
  error_description?: string // a provider's own words, passed along by the social callback
}

export const Route = createFileRoute('/_unauthenticated/sign-in')({
  validateSearch: (s: Record<string, unknown>): SignInSearch => ({
    view: views.includes(s.view as SignInView) ? (s.view as SignInView) : undefined,
    redirect: typeof s.redirect === 'string' ? s.redirect : undefined,
    token: typeof s.token === 'string' ? s.token : undefined,
    error: typeof s.error === 'string' ? s.error : undefined,
    error_description: typeof s.error_description === 'string' ? s.error_description : undefined,
  }),
  component: SignInRoute,
})

function SignInRoute() {
  const search = Route.useSearch()
  const { error_description, ...rest } = search
  return <SignInPage {...rest} errorDescription={error_description} />
}
