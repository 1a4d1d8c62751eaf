import nodemailer from 'nodemailer'
import type { Config } from '../config.ts'
import type { Mail } from './render.ts'

/** What came of one e-mail: accepted, try again later, or give up (a permanent SMTP refusal). */
type MailOutcome =
  | { result: 'sent' }
  | { result: 'logged' }
  | { result: 'retry'; error: string }
  | { result: 'failed'; error: string }

export type Mailer = {
  send: (mail: Mail, messageId: string) => Promise<MailOutcome>
  close: () => void
}

/** Where mail goes without SMTP_URL: the server's log. */
export type MailLog = (line: string) => void

/**
 * Sends through SMTP_URL with nodemailer, or, without it, writes each mail
 * (to, subject, text) to the log instead. `messageId` makes a retried mail
 * the same message to the recipient's mail program.
 *
 * @example
 * const mailer = createMailer(config)
 * await mailer.send(renderMail(to, payload, publicUrl), `${notificationId}@pairwise`)
 */
export function createMailer(
  config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>,
  log: MailLog = console.log,
): Mailer {
  if (!config.SMTP_URL) {
    return {
      send: async (mail) => {
        log(
          `E-mail not sent (SMTP_URL is not set):\nTo: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}`,
        )
        return { result: 'logged' }
      },
      close: () => {},
    }
  }
  const transport = nodemailer.createTransport({
    url: config.SMTP_URL,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  })
  return {
    send: async (mail, messageId) => {
      try {
        await transport.sendMail({
          from: config.MAIL_FROM,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: `<${messageId}>`,
          headers: { 'Auto-Submitted': 'auto-generated', ...mail.headers },
        })
        return { result: 'sent' }
      } catch (error) {
        const permanent = (error as { permanent?: unknown }).permanent === true
        // Never the URL: it may carry the SMTP password.
        const text = `The mail server refused the e-mail: ${(error as Error).message ?? error}`
        return permanent ? { result: 'failed', error: text } : { result: 'retry', error: text }
      }
    },
    close: () => transport.close(),
  }
}
