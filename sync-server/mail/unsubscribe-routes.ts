import { type Context, Hono } from 'hono'
import { html, raw } from 'hono/html'
import { z } from 'zod'
import {
  EMAIL_CATEGORIES,
  EMAIL_CATEGORY_LABELS,
  type EmailCategory,
  type Preferences,
} from '../../shared/preferences.ts'
import type { AppEnv } from '../http/env.ts'
import { query } from '../http/input.ts'
import { route } from '../http/route.ts'
import { readPreferences, writePreferences } from '../notifications/queries.ts'
import { readUnsubscribeToken, type UnsubscribeScope, unsubscribeKey } from './unsubscribe.ts'

/** /api/email/unsubscribe: the signed link every e-mail carries (RFC 8058). */
export const unsubscribeRoutes = new Hono<AppEnv>()

const STYLE = `body{font-family:system-ui,sans-serif;color:#1f2937;background:#f8fafc;margin:0;padding:48px 16px;line-height:1.5}
main{max-width:28rem;margin:0 auto;background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:24px}
h1{font-size:1.25rem;margin:0 0 12px}button{font:inherit;background:#0f172a;color:#fff;border:0;border-radius:8px;padding:10px 16px;cursor:pointer}
a{color:#2563eb}@media (prefers-color-scheme:dark){body{background:#0f172a;color:#e2e8f0}main{background:#1e293b;border-color:#334155}button{background:#e2e8f0;color:#0f172a}a{color:#93c5fd}}`

function page<E extends AppEnv>(
  c: Context<E>,
  title: string,
  body: ReturnType<typeof html>,
  status: 200 | 404,
) {
  const nonce = c.get('secureHeadersNonce')
  return c.html(
    html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · Pairwise</title><style nonce="${nonce}">${raw(STYLE)}</style></head>
<body><main><h1>${title}</h1>${body}</main></body></html>`,
    status,
  )
}

/** The categories a scope stands for: one, or every category the person takes in the digest. */
function categoriesOf(scope: UnsubscribeScope, preferences: Preferences): EmailCategory[] {
  if (scope !== 'digest') return [scope]
  return EMAIL_CATEGORIES.filter((c) => preferences.emailDelivery[c] === 'digest')
}

function turnedOff(preferences: Preferences, categories: EmailCategory[]): Preferences {
  const next = { ...preferences, emailNotifications: { ...preferences.emailNotifications } }
  for (const category of categories) {
    if (category === 'reminders') next.reminders = false
    else next.emailNotifications[category] = false
  }
  return next
}

const INVALID = html`<p>This link is not valid (it may have been cut short by your mail program). You can change which e-mails you get in your <a href="/settings/notifications">notification settings</a>.</p>`

/** `<user id>.<scope>.<HMAC-SHA256, base64url>` (mail/unsubscribe.ts). */
const tokenQuery = z.strictObject({
  token: z
    .string({ error: 'token is required: open the link from the e-mail as it is' })
    .regex(
      /^[0-9a-f-]{36}\.[A-Za-z]+\.[A-Za-z0-9_-]{43}$/,
      'token is not a valid link: open the link from the e-mail as it is',
    ),
})

async function resolve<E extends AppEnv>(c: Context<E>, token: string) {
  const key = await unsubscribeKey(c.get('deps').sql)
  const found = readUnsubscribeToken(key, token)
  if (!found) return undefined
  const db = c.get('db')
  const [user] = await db<{ id: string }[]>`SELECT id FROM users WHERE id = ${found.userId}`
  if (!user) return undefined
  const preferences = await readPreferences(db, found.userId)
  return { ...found, preferences, categories: categoriesOf(found.scope, preferences) }
}

function listOf(categories: EmailCategory[]): string {
  return categories.map((c) => EMAIL_CATEGORY_LABELS[c]).join(', ')
}

unsubscribeRoutes.get(
  '/unsubscribe',
  route({
    tag: 'Notifications',
    auth: false,
    errors: [],
    pageErrors: [404],
    summary: 'Unsubscribe page',
    description:
      'The page an e-mail’s “Stop e-mails like this one” link opens (`token` signed for its recipient and category). Changes nothing by itself (mail scanners open links); its button posts to the same address.',
    response: { status: 200, schema: z.string(), mediaType: 'text/html', description: 'The page' },
  }),
  query(tokenQuery),
  async (c) => {
    const found = await resolve(c, c.var.query().token)
    if (!found) return page(c, 'Link not valid', INVALID, 404)
    if (found.categories.length === 0) {
      return page(
        c,
        'Nothing to stop',
        html`<p>You no longer get these e-mails. <a href="/settings/notifications">Notification settings</a></p>`,
        200,
      )
    }
    return page(
      c,
      'Stop these e-mails?',
      html`<p>You will no longer get e-mails or pushes about: <strong>${listOf(found.categories)}</strong>. You still see everything in the app.</p>
<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Stop these e-mails</button></form>
<p><a href="/settings/notifications">Change all notification settings instead</a></p>`,
      200,
    )
  },
)

unsubscribeRoutes.post(
  '/unsubscribe',
  route({
    tag: 'Notifications',
    auth: false,
    errors: [],
    pageErrors: [404],
    idempotencyKey: false,
    replayable: false,
    summary: 'One-click unsubscribe',
    description:
      'RFC 8058 one-click unsubscribe: the mail program (or the page’s button) posts `List-Unsubscribe=One-Click` to the address of the e-mail’s List-Unsubscribe header; the e-mails of that category (or everything the person takes in the daily digest) are turned off. Repeating it changes nothing more.',
    response: { status: 200, schema: z.string(), mediaType: 'text/html', description: 'Done' },
  }),
  query(tokenQuery),
  async (c) => {
    const found = await resolve(c, c.var.query().token)
    if (!found) return page(c, 'Link not valid', INVALID, 404)
    if (found.categories.length > 0) {
      await writePreferences(
        c.get('db'),
        found.userId,
        turnedOff(found.preferences, found.categories),
      )
    }
    return page(
      c,
      'Done',
      html`<p>You will no longer get e-mails about: <strong>${listOf(found.categories) || 'these updates'}</strong>. To turn them on again, open your <a href="/settings/notifications">notification settings</a>.</p>`,
      200,
    )
  },
)
