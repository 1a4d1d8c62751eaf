import type { DeliveryPayload } from '../delivery/queue.ts'

/** An e-mail ready for the transport: plain text and HTML of the same message. */
export type Mail = { to: string; subject: string; text: string; html: string }

/** Where people change which e-mails they get (spec: /settings/notifications). */
const SETTINGS_PATH = '/settings/notifications'

/**
 * The e-mail for a notification: its title as the subject, its message, and
 * an absolute link to what it is about. Every value is escaped for the HTML.
 *
 * @example
 * renderMail('ada@example.com', payload, 'https://pairwise.example.com')
 */
export function renderMail(to: string, n: DeliveryPayload, publicUrl: string): Mail {
  const link = `${publicUrl}${n.link?.startsWith('/') ? n.link : '/'}`
  const settings = `${publicUrl}${SETTINGS_PATH}`
  const text = [
    n.message,
    '',
    `Open Pairwise: ${link}`,
    '',
    '--',
    `You get this e-mail because of your notification settings: ${settings}`,
  ].join('\n')
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(n.title)}</title></head>
<body style="font-family:system-ui,sans-serif;color:#1f2937;line-height:1.5">
<p>${escapeHtml(n.message)}</p>
<p><a href="${escapeHtml(link)}">Open Pairwise</a></p>
<p style="color:#64748b;font-size:13px">You get this e-mail because of your <a href="${escapeHtml(settings)}">notification settings</a>.</p>
</body></html>`
  return { to, subject: n.title, text, html }
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
