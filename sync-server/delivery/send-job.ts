import type { Config } from '../config.ts'
import type { Sql } from '../db/connect.ts'
import { renderMail } from '../mail/render.ts'
import type { Mailer } from '../mail/send.ts'
import { PUSH_TTL_SECONDS, pushPayloadOf, sendPush } from '../push/send.ts'
import { vapidKeys } from '../push/vapid.ts'
import type { DeliveryOptions } from './options.ts'
import { completeJob, type DeliveryJob, failJob, retryJob } from './queue.ts'

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

/** Sends one push job to its device, read afresh: it may have been re-keyed or removed. */
export async function sendPushJob(ctx: JobContext, job: DeliveryJob): Promise<Outcome> {
  if (Date.now() - job.createdAt.getTime() > PUSH_TTL_SECONDS * 1000) {
    return { result: 'failed', error: 'Not sent within the push time to live.' }
  }
  const [target] = await ctx.sql<{ endpoint: string; p256dh: string; auth: string }[]>`
    SELECT endpoint, p256dh, auth FROM push_subscriptions
    WHERE id = ${job.subscriptionId} AND user_id = ${job.userId}`
  if (!target) return { result: 'skipped', reason: 'The device no longer subscribes.' }
  const keys = await vapidKeys(ctx.sql, ctx.config)
  return sendPush(
    target,
    pushPayloadOf(job.payload),
    { ...keys, subject: ctx.config.VAPID_SUBJECT },
    AbortSignal.any([ctx.signal, AbortSignal.timeout(ctx.options.sendTimeoutMs)]),
    job.payload.kind,
  )
}

/** Sends one e-mail job to the address the user has now. */
export async function sendEmailJob(ctx: JobContext, job: DeliveryJob): Promise<Outcome> {
  const [user] = await ctx.sql<{ email: string | null }[]>`
    SELECT btrim(email) AS email FROM users WHERE id = ${job.userId}`
  if (!user?.email) return { result: 'skipped', reason: 'The user has no e-mail address.' }
  const publicUrl = ctx.config.PUBLIC_URL ?? `http://localhost:${ctx.config.PORT}`
  const host = new URL(publicUrl).hostname
  return ctx.mailer.send(
    renderMail(user.email, job.payload, publicUrl),
    `${job.payload.notificationId}@${host}`,
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
