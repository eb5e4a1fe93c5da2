import { useEffect, useRef } from 'react'
import { Link } from '@tanstack/react-router'
import { toast } from 'sonner'
import { SignInForm } from './sign-in-form'
import { SignUpForm } from './sign-up-form'
import { ForgotPasswordForm } from './forgot-password-form'
import { ResetPasswordForm } from './reset-password-form'
import { SocialButtons } from './social-buttons'
import { useDocumentTitle } from '../../../lib/document-title'
import { oauthErrorText } from '../../../config/social'

export type SignInView = 'sign-in' | 'sign-up' | 'forgot' | 'reset'

const titles: Record<SignInView, string> = {
  'sign-in': 'Sign in to sellertrends',
  'sign-up': 'Create your account',
  forgot: 'Forgot your password?',
  reset: 'Choose a new password',
}

// isOAuthError tells the social callback's codes (lower_snake) from the reset link's INVALID_TOKEN.
const isOAuthError = (e?: string): e is string => !!e && e !== 'INVALID_TOKEN'

export function SignInPage({ view, redirect, token, error, errorDescription }: { view?: SignInView; redirect?: string; token?: string; error?: string; errorDescription?: string }) {
  const current: SignInView = view ?? (token || error === 'INVALID_TOKEN' ? 'reset' : 'sign-in')
  useDocumentTitle(titles[current])
  const shown = useRef<string>(undefined)
  useEffect(() => {
    if (isOAuthError(error) && shown.current !== error) {
      shown.current = error // once per code, also under StrictMode's double effects
      toast.error(oauthErrorText(error, errorDescription))
    }
  }, [error, errorDescription])
  return (
    <div className="w-full max-w-sm rounded-xl border border-zinc-200 bg-white p-8 shadow-sm dark:border-zinc-800 dark:bg-zinc-900">
      <h1 className="text-xl font-semibold">{titles[current]}</h1>
      {current !== 'reset' && current !== 'forgot' && (
        <div role="tablist" aria-label="Account" className="mt-4 grid grid-cols-2 gap-1 rounded-md bg-zinc-100 p-1 text-sm dark:bg-zinc-800">
          {(['sign-in', 'sign-up'] as const).map((v) => (
            <Link
              key={v}
              role="tab"
              aria-selected={current === v}
              to="/sign-in"
              search={{ view: v, redirect }}
              className={`rounded px-3 py-1.5 text-center ${current === v ? 'bg-white shadow-sm dark:bg-zinc-950' : ''}`}
            >
              {v === 'sign-in' ? 'Sign in' : 'Create account'}
            </Link>
          ))}
        </div>
      )}
      <div className="mt-6">
        {current === 'sign-in' && <SignInForm redirect={redirect} />}
        {(current === 'sign-in' || current === 'sign-up') && <SocialButtons redirect={redirect} />}
        {current === 'sign-up' && <SignUpForm redirect={redirect} />}
        {current === 'forgot' && <ForgotPasswordForm />}
        {current === 'reset' && <ResetPasswordForm token={token} invalid={error === 'INVALID_TOKEN'} />}
      </div>
    </div>
  )
}
