import { html } from 'hono/html'
import { SIGN_IN_ERRORS } from '../../shared/sign-in.ts'
import { problemResponse } from '../http/errors.ts'
import { rateLimit } from '../http/rate-limit.ts'

/**
 * AUTH_RATE_LIMIT sign-in requests per minute from one client address. A
 * browser navigation gets a short page; an API client a problem answer.
 */
export const signInRateLimit = rateLimit({
  name: 'sign-in',
  limit: (c) => c.get('deps').config.AUTH_RATE_LIMIT,
  windowSeconds: 60,
  refuse: async (c) => {
    if (!c.req.header('accept')?.includes('text/html')) {
      return problemResponse(429, SIGN_IN_ERRORS.rate_limited)
    }
    const page = await html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Too many sign-in attempts · Pairwise</title>
<style nonce="${c.get('secureHeadersNonce')}">body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1.25rem}</style>
</head><body><h1>Too many sign-in attempts</h1><p>${SIGN_IN_ERRORS.rate_limited}</p><p><a href="/">Back to Pairwise</a></p></body></html>`
    return new Response(page.toString(), {
      status: 429,
      headers: { 'content-type': 'text/html; charset=utf-8' },
    })
  },
})
