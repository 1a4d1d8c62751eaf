import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { EMAIL_CATEGORIES, type EmailCategory } from '../../shared/preferences.ts'
import type { Db, Sql } from '../db/connect.ts'

/**
 * One-click unsubscribe (RFC 8058): every e-mail carries a link signed for
 * its recipient and what it was about, so following it (or the mail
 * program's one-click POST) turns exactly those e-mails off without a
 * sign-in. The key is generated once and kept in `server_settings`, like
 * the VAPID pair.
 */

/** What a link turns off: one category, or everything that came in the daily digest. */
export type UnsubscribeScope = EmailCategory | 'digest'
const SCOPES: readonly string[] = [...EMAIL_CATEGORIES, 'digest']

const SETTING = 'unsubscribe_key'
const cache = new WeakMap<Sql, Promise<Buffer>>()

/** The server's signing key, created by whichever instance asks first. */
export function unsubscribeKey(sql: Sql): Promise<Buffer> {
  let key = cache.get(sql)
  if (!key) {
    key = storedKey(sql).catch((error: unknown) => {
      cache.delete(sql)
      throw error
    })
    cache.set(sql, key)
  }
  return key
}

async function storedKey(db: Db): Promise<Buffer> {
  await db`
    INSERT INTO server_settings (name, value)
    VALUES (${SETTING}, ${db.json({ key: randomBytes(32).toString('base64url') })})
    ON CONFLICT (name) DO NOTHING`
  const [row] = await db<{ value: { key: string } }[]>`
    SELECT value FROM server_settings WHERE name = ${SETTING}`
  if (!row) throw new Error('The unsubscribe key could not be stored.')
  return Buffer.from(row.value.key, 'base64url')
}

function signature(key: Buffer, userId: string, scope: UnsubscribeScope): Buffer {
  return createHmac('sha256', key).update(`unsubscribe:${userId}:${scope}`).digest()
}

/** `<userId>.<scope>.<signature>`, safe in a URL. */
export function unsubscribeToken(key: Buffer, userId: string, scope: UnsubscribeScope): string {
  return `${userId}.${scope}.${signature(key, userId, scope).toString('base64url')}`
}

/** The user and scope a token was made for, or null when it is not one of ours. */
export function readUnsubscribeToken(
  key: Buffer,
  token: string,
): { userId: string; scope: UnsubscribeScope } | null {
  const [userId, scope, sig, extra] = token.split('.')
  if (!userId || !scope || !sig || extra !== undefined) return null
  if (!/^[0-9a-f-]{36}$/.test(userId) || !SCOPES.includes(scope)) return null
  const expected = signature(key, userId, scope as UnsubscribeScope)
  const given = Buffer.from(sig, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
  return { userId, scope: scope as UnsubscribeScope }
}

/** The link an e-mail's footer and its List-Unsubscribe header point at. */
export function unsubscribeUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/api/email/unsubscribe?token=${encodeURIComponent(token)}`
}
