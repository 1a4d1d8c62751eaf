import type { DeliveryPayload } from '../delivery/queue.ts'

/** An e-mail ready for the transport: plain text and HTML of the same message, and extra headers. */
export type Mail = {
  to: string
  subject: string
  text: string
  html: string
  headers?: Record<string, string>
}

/** The headers of RFC 2369 and RFC 8058: the mail program's own one-click unsubscribe. */
function unsubscribeHeaders(unsubscribe: string | undefined): Record<string, string> {
  return unsubscribe
    ? {
        'List-Unsubscribe': `<${unsubscribe}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      }
    : {}
}

function footerText(settings: string, unsubscribe: string | undefined): string[] {
  return [
    '--',
    `You get this e-mail because of your notification settings: ${settings}`,
    ...(unsubscribe ? [`Stop e-mails like this one: ${unsubscribe}`] : []),
  ]
}

function footerHtml(settings: string, unsubscribe: string | undefined): string {
  const stop = unsubscribe
    ? ` <a href="${escapeHtml(unsubscribe)}">Stop e-mails like this one</a>.`
    : ''
  return `<p style="color:#64748b;font-size:13px">You get this e-mail because of your <a href="${escapeHtml(settings)}">notification settings</a>.${stop}</p>`
}

function absolute(publicUrl: string, link: string | null | undefined): string {
  return `${publicUrl}${link?.startsWith('/') ? link : '/'}`
}

/** Where people change which e-mails they get (spec: /settings/notifications). */
const SETTINGS_PATH = '/settings/notifications'

/**
 * The e-mail for a notification: its title as the subject, its message, and
 * an absolute link to what it is about. Every value is escaped for the HTML.
 * With `unsubscribe`, a link and the List-Unsubscribe headers that turn such
 * e-mails off in one click.
 *
 * @example
 * renderMail('ada@example.com', payload, 'https://pairwise.example.com')
 */
export function renderMail(
  to: string,
  n: DeliveryPayload,
  publicUrl: string,
  unsubscribe?: string,
): Mail {
  const link = absolute(publicUrl, n.link)
  const settings = `${publicUrl}${SETTINGS_PATH}`
  const text = [
    n.message,
    '',
    `Open Pairwise: ${link}`,
    '',
    ...footerText(settings, unsubscribe),
  ].join('\n')
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(n.title)}</title></head>
<body style="font-family:system-ui,sans-serif;color:#1f2937;line-height:1.5">
<p>${escapeHtml(n.message)}</p>
<p><a href="${escapeHtml(link)}">Open Pairwise</a></p>
${footerHtml(settings, unsubscribe)}
</body></html>`
  return { to, subject: n.title, text, html, headers: unsubscribeHeaders(unsubscribe) }
}

/** One line of a digest: a notification as it was written. */
export type DigestItem = { title: string; message: string; link: string | null }

/**
 * One e-mail for several notifications (the daily digest, or an e-mail that
 * also carries what waited for the digest): a subject that counts them, each
 * as its title, message and link.
 */
export function renderDigest(
  to: string,
  items: readonly DigestItem[],
  publicUrl: string,
  unsubscribe?: string,
): Mail {
  const settings = `${publicUrl}${SETTINGS_PATH}`
  const subject =
    items.length === 1 ? (items[0]?.title ?? 'Pairwise') : `Pairwise: ${items.length} updates`
  const text = [
    items.length === 1
      ? 'Since your last e-mail from Pairwise:'
      : `${items.length} updates since your last e-mail from Pairwise:`,
    '',
    ...items.flatMap((item) => [
      `* ${item.title}: ${item.message}`,
      `  ${absolute(publicUrl, item.link)}`,
      '',
    ]),
    ...footerText(settings, unsubscribe),
  ].join('\n')
  const list = items
    .map(
      (item) =>
        `<li style="margin-bottom:12px"><strong>${escapeHtml(item.title)}</strong><br>${escapeHtml(item.message)}<br><a href="${escapeHtml(absolute(publicUrl, item.link))}">Open in Pairwise</a></li>`,
    )
    .join('\n')
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,sans-serif;color:#1f2937;line-height:1.5">
<p>${items.length === 1 ? 'Since your last e-mail from Pairwise:' : `${items.length} updates since your last e-mail from Pairwise:`}</p>
<ul style="padding-left:20px">
${list}
</ul>
${footerHtml(settings, unsubscribe)}
</body></html>`
  return { to, subject, text, html, headers: unsubscribeHeaders(unsubscribe) }
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Text made safe for an HTML element or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c)
}
