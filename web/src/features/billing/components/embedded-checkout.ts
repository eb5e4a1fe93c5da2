import { PolarEmbedCheckout } from '@polar-sh/checkout/embed'

// openEmbeddedCheckout shows Polar's checkout in a frame over the page. The library draws a
// full-screen loader (z-index 2147483647) until the frame reports 'loaded', refuses to close
// after 'confirmed', closes on 'close' and, after 'success', lets it close again; it trusts
// messages only from Polar's production and sandbox origins. onSuccess runs after a payment.
export async function openEmbeddedCheckout(url: string, theme: 'light' | 'dark', onSuccess: (successURL: string, redirect: boolean) => void) {
  const checkout = await PolarEmbedCheckout.create(url, { theme })
  checkout.addEventListener('success', (e) => {
    onSuccess(e.detail.successURL, e.detail.redirect)
  })
  return checkout
}
