import { localTime, nextSendTime } from '../../shared/delivery-time.ts'
import { isDecision } from '../../shared/notification.ts'
import { PREFERENCE_FOR_KIND, type Preferences, wantsDelivery } from '../../shared/preferences.ts'
import type { Config } from '../config.ts'
import type { Db, Sql } from '../db/connect.ts'
import { type DigestItem, renderDigest, renderMail } from '../mail/render.ts'
import type { Mailer } from '../mail/send.ts'
import {
  type UnsubscribeScope,
  unsubscribeKey,
  unsubscribeToken,
  unsubscribeUrl,
} from '../mail/unsubscribe.ts'
import {
  type PreferenceRow,
  preferenceColumns,
  preferencesFromRow,
} from '../notifications/queries.ts'
import { PUSH_TTL_SECONDS, pushPayloadOf, sendPush } from '../push/send.ts'
import { vapidKeys } from '../push/vapid.ts'
import type { DeliveryOptions } from './options.ts'
import { completeJob, type DeliveryJob, deferJobs, failJob, retryJob } from './queue.ts'

/** What a worker hands the senders. */
export type JobContext = {
  sql: Sql
  config: Config
  options: DeliveryOptions
  signal: AbortSignal
  mailer: Mailer
}

/** The result of one attempt, whatever the channel. */
export type Outcome =
  | { result: 'sent' | 'logged' }
  | { result: 'skipped'; reason: string }
  | { result: 'gone'; status: number }
  | { result: 'retry'; error: string; retryAfterMs?: number }
  | { result: 'failed'; error: string }
  | { result: 'defer'; until: Date; reason: string }

/** At most this many e-mails (the digest included) a person a local day, decisions aside. */
export const DAILY_EMAIL_BUDGET = 1

/** What decides, at send time, whether and when a job goes: the notification and the person now. */
type Gate = {
  email: string | null
  read: boolean
  preferences: Preferences
}

async function gateOf(ctx: JobContext, job: DeliveryJob): Promise<Gate | undefined> {
  const [row] = await ctx.sql<({ email: string | null; read: boolean | null } & PreferenceRow)[]>`
    SELECT btrim(u.email) AS email, n.read, ${preferenceColumns(ctx.sql)}
    FROM users u
    LEFT JOIN notifications n ON n.id = ${job.payload.notificationId} AND n.user_id = u.id
    LEFT JOIN notification_preferences p ON p.user_id = u.id
    WHERE u.id = ${job.userId}`
  if (!row) return undefined
  return {
    email: row.email || null,
    // Notifications are not deleted on their own (only with their user, and the jobs with it).
    read: row.read ?? false,
    preferences: preferencesFromRow(row),
  }
}

/**
 * What the person's settings say about a notification now: skip it (read in
 * the app, or its category turned off since), hold it until their quiet
 * hours end, or go ahead.
 */
function judge(ctx: JobContext, job: DeliveryJob, gate: Gate): Outcome | undefined {
  if (gate.read) return { result: 'skipped', reason: 'Read in the app before it went out.' }
  if (!wantsDelivery(gate.preferences, job.payload.kind)) {
    return { result: 'skipped', reason: 'Turned off in the preferences since.' }
  }
  const now = ctx.options.now()
  const until = nextSendTime(gate.preferences, now)
  if (until.getTime() > now.getTime()) {
    return { result: 'defer', until, reason: 'Held for the end of quiet hours.' }
  }
  return undefined
}

/** Serialises everything that counts or spends one person's daily budget, across instances. */
export async function lockBudget(tx: Db, userId: string): Promise<void> {
  await tx`SELECT pg_advisory_xact_lock(7312018, hashtext(${userId}))`
}

/**
 * Takes one of the person's daily sends on `channel` for a notification, if
 * the budget has one left; a notification that has one already (another
 * device, a retry) keeps it. A per-person lock makes concurrent workers count
 * one after another.
 */
async function takeBudget(
  ctx: JobContext,
  userId: string,
  localDate: string,
  channel: 'email' | 'push',
  notificationId: string,
  max: number,
): Promise<boolean> {
  return ctx.sql.begin(async (tx) => {
    await lockBudget(tx, userId)
    const [row] = await tx<{ mine: boolean; used: number }[]>`
      SELECT bool_or(notification_id = ${notificationId}) AS mine, count(*)::int AS used
      FROM delivery_budget
      WHERE user_id = ${userId} AND local_date = ${localDate} AND channel = ${channel}`
    if (row?.mine) return true
    if ((row?.used ?? 0) >= max) return false
    await tx`
      INSERT INTO delivery_budget (user_id, local_date, channel, notification_id)
      VALUES (${userId}, ${localDate}, ${channel}, ${notificationId})`
    return true
  }) as Promise<boolean>
}

/** Sends one push job to its device, read afresh: it may have been re-keyed or removed. */
export async function sendPushJob(ctx: JobContext, job: DeliveryJob): Promise<Outcome> {
  const since = Math.max(job.createdAt.getTime(), job.heldUntil?.getTime() ?? 0)
  if (Date.now() - since > PUSH_TTL_SECONDS * 1000) {
    return { result: 'failed', error: 'Not sent within the push time to live.' }
  }
  const gate = await gateOf(ctx, job)
  if (!gate) return { result: 'skipped', reason: 'The user no longer exists.' }
  const verdict = judge(ctx, job, gate)
  if (verdict) return verdict
  const [target] = await ctx.sql<{ endpoint: string; p256dh: string; auth: string }[]>`
    SELECT endpoint, p256dh, auth FROM push_subscriptions
    WHERE id = ${job.subscriptionId} AND user_id = ${job.userId}`
  if (!target) return { result: 'skipped', reason: 'The device no longer subscribes.' }
  if (!isDecision(job.payload.kind)) {
    const day = localTime(ctx.options.now(), gate.preferences.timeZone).date
    const within = await takeBudget(
      ctx,
      job.userId,
      day,
      'push',
      job.payload.notificationId,
      ctx.options.pushBudget,
    )
    if (!within) {
      return {
        result: 'skipped',
        reason: `Over the daily budget of ${ctx.options.pushBudget} pushes.`,
      }
    }
  }
  const keys = await vapidKeys(ctx.sql, ctx.config)
  return sendPush(
    target,
    pushPayloadOf(job.payload),
    { ...keys, subject: ctx.config.VAPID_SUBJECT },
    AbortSignal.any([ctx.signal, AbortSignal.timeout(ctx.options.sendTimeoutMs)]),
    job.payload.kind,
  )
}

function publicUrlOf(config: Config): string {
  return config.PUBLIC_URL ?? `http://localhost:${config.PORT}`
}

async function unsubscribeLink(
  ctx: JobContext,
  userId: string,
  scope: UnsubscribeScope,
): Promise<string> {
  const key = await unsubscribeKey(ctx.sql)
  return unsubscribeUrl(publicUrlOf(ctx.config), unsubscribeToken(key, userId, scope))
}

/**
 * Sends one e-mail job to the address the user has now. It waits the e-mail
 * delay first (dropped if read meanwhile) and for the end of quiet hours.
 * A decision goes on its own; anything else takes the day's one e-mail and
 * carries whatever waited for the digest, or, when today's e-mail went out
 * already, waits for the next digest itself.
 */
export async function sendEmailJob(ctx: JobContext, job: DeliveryJob): Promise<Outcome> {
  const now = ctx.options.now()
  const due = new Date(job.createdAt.getTime() + ctx.options.emailDelayMs)
  if (due.getTime() > now.getTime() && job.heldUntil === null) {
    return { result: 'defer', until: due, reason: 'Waiting in case it is read in the app.' }
  }
  const gate = await gateOf(ctx, job)
  if (!gate?.email) return { result: 'skipped', reason: 'The user has no e-mail address.' }
  const verdict = judge(ctx, job, gate)
  if (verdict) return verdict
  const publicUrl = publicUrlOf(ctx.config)
  const host = new URL(publicUrl).hostname
  const messageId = `${job.payload.notificationId}@${host}`
  const category = PREFERENCE_FOR_KIND[job.payload.kind]
  if (isDecision(job.payload.kind)) {
    const unsubscribe = await unsubscribeLink(ctx, job.userId, category)
    return ctx.mailer.send(renderMail(gate.email, job.payload, publicUrl, unsubscribe), messageId)
  }
  const day = localTime(now, gate.preferences.timeZone).date
  const within = await takeBudget(
    ctx,
    job.userId,
    day,
    'email',
    job.payload.notificationId,
    DAILY_EMAIL_BUDGET,
  )
  if (!within) {
    await ctx.sql`
      UPDATE notifications SET digest_state = 'waiting' WHERE id = ${job.payload.notificationId}`
    return { result: 'skipped', reason: 'Moved to the next digest: today’s e-mail went out.' }
  }
  const carried = await carryWaiting(ctx, job)
  if (carried.length === 0) {
    const unsubscribe = await unsubscribeLink(ctx, job.userId, category)
    return ctx.mailer.send(renderMail(gate.email, job.payload, publicUrl, unsubscribe), messageId)
  }
  const unsubscribe = await unsubscribeLink(ctx, job.userId, 'digest')
  return ctx.mailer.send(
    renderDigest(gate.email, [job.payload, ...carried], publicUrl, unsubscribe),
    messageId,
  )
}

/**
 * The unread notifications that waited for the digest, taken into this
 * e-mail (once: a retry of the job carries the same ones, recorded in it).
 */
async function carryWaiting(ctx: JobContext, job: DeliveryJob): Promise<DigestItem[]> {
  const ids = (await ctx.sql.begin(async (tx) => {
    const [held] = await tx<{ ids: string[] | null }[]>`
      SELECT ARRAY(SELECT jsonb_array_elements_text(payload -> 'notificationIds')) AS ids
      FROM delivery_jobs WHERE id = ${job.id} AND payload ? 'notificationIds'`
    if (held?.ids) return held.ids
    const taken = await tx<{ id: string }[]>`
      UPDATE notifications SET digest_state = 'sent'
      WHERE user_id = ${job.userId} AND digest_state = 'waiting' AND NOT read
        AND id <> ${job.payload.notificationId}
      RETURNING id`
    const list = taken.map((r) => r.id)
    await tx`
      UPDATE delivery_jobs SET payload = payload || ${tx.json({ notificationIds: list })}
      WHERE id = ${job.id}`
    return list
  })) as string[]
  if (ids.length === 0) return []
  return ctx.sql<DigestItem[]>`
    SELECT title, message, link FROM notifications
    WHERE id = ANY (${ctx.sql.array(ids)}::uuid[]) AND NOT read
    ORDER BY created_at, id`
}

/** Sends a daily digest: what it lists that is still unread, in one e-mail. */
export async function sendDigestJob(ctx: JobContext, job: DeliveryJob): Promise<Outcome> {
  const ids = job.payload.notificationIds ?? []
  const [user] = await ctx.sql<{ email: string | null }[]>`
    SELECT btrim(email) AS email FROM users WHERE id = ${job.userId}`
  if (!user?.email) return { result: 'skipped', reason: 'The user has no e-mail address.' }
  const items = ids.length
    ? await ctx.sql<DigestItem[]>`
        SELECT title, message, link FROM notifications
        WHERE id = ANY (${ctx.sql.array(ids)}::uuid[]) AND user_id = ${job.userId} AND NOT read
        ORDER BY created_at, id`
    : []
  if (items.length === 0) {
    return { result: 'skipped', reason: 'Everything it listed was read in the app.' }
  }
  const publicUrl = publicUrlOf(ctx.config)
  const unsubscribe = await unsubscribeLink(ctx, job.userId, 'digest')
  return ctx.mailer.send(
    renderDigest(user.email, items, publicUrl, unsubscribe),
    `digest-${job.id}@${new URL(publicUrl).hostname}`,
  )
}

/**
 * Records an attempt's outcome: done; the subscription removed (404/410,
 * which takes its jobs with it); another attempt after a backoff with jitter
 * (at least what Retry-After asked); or, after maxAttempts or a refusal that
 * retrying cannot change, failed.
 */
export async function settleJob(
  ctx: JobContext,
  workerId: string,
  job: DeliveryJob,
  outcome: Outcome,
): Promise<void> {
  const { sql, options } = ctx
  switch (outcome.result) {
    case 'sent':
      return completeJob(sql, job.id)
    case 'logged':
      return completeJob(sql, job.id, 'Logged: SMTP_URL is not set.')
    case 'skipped':
      return completeJob(sql, job.id, outcome.reason)
    case 'gone':
      options.log.info(
        `Push job ${job.id}: the push service answered ${outcome.status}; the subscription is removed.`,
      )
      await sql`DELETE FROM push_subscriptions WHERE id = ${job.subscriptionId}`
      return
    case 'defer':
      return deferJobs(sql, workerId, [
        { id: job.id, until: outcome.until, reason: outcome.reason },
      ])
    case 'failed':
      options.log.warn(`Delivery job ${job.id} (${job.kind}) failed: ${outcome.error}`)
      return failJob(sql, job.id, workerId, outcome.error)
    case 'retry': {
      if (job.attempts >= options.maxAttempts) {
        const error = `Gave up after ${job.attempts} attempts. ${outcome.error}`
        options.log.warn(`Delivery job ${job.id} (${job.kind}) failed: ${error}`)
        return failJob(sql, job.id, workerId, error)
      }
      const delay = Math.min(
        options.backoffMaxMs,
        Math.max(backoffMs(job.attempts, options), outcome.retryAfterMs ?? 0),
      )
      return retryJob(sql, job.id, workerId, delay, outcome.error)
    }
  }
}

/** About base·2^(attempts-1), capped, and spread over its upper half so retries do not bunch. */
export function backoffMs(
  attempts: number,
  options: Pick<DeliveryOptions, 'backoffBaseMs' | 'backoffMaxMs' | 'random'>,
): number {
  const ceiling = Math.min(options.backoffMaxMs, options.backoffBaseMs * 2 ** (attempts - 1))
  return Math.round(ceiling / 2 + (options.random() * ceiling) / 2)
}
