import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

// An SMTP server in the test process that keeps what it receives: a mail sink.

type ReceivedMail = {
  from: string
  to: string[]
  /** Unfolded header fields, names lower-cased. */
  headers: Map<string, string>
  /** The text/plain part, decoded. */
  text: string
  /** The text/html part, decoded. */
  html: string
}

export type MailSink = {
  /** SMTP_URL for the sink, with the credentials it accepts. */
  url: string
  received: () => ReceivedMail[]
  waitFor: (count: number, timeoutMs?: number) => Promise<ReceivedMail[]>
  close: () => Promise<void>
}

/** Starts an SMTP sink on 127.0.0.1 that accepts the user `pairwise` with password `secret`. */
export async function startMailSink(): Promise<MailSink> {
  const received: ReceivedMail[] = []
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'pairwise' && auth.password === 'secret') {
        callback(null, { user: auth.username })
      } else {
        callback(new Error('Invalid username or password'))
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const envelope = session.envelope
        received.push({
          ...parseMessage(Buffer.concat(chunks).toString('utf8')),
          from: envelope.mailFrom ? envelope.mailFrom.address : '',
          to: envelope.rcptTo.map((r) => r.address),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as AddressInfo).port
  return {
    url: `smtp://pairwise:secret@127.0.0.1:${port}`,
    received: () => [...received],
    waitFor: async (count, timeoutMs = 5_000) => {
      const end = Date.now() + timeoutMs
      while (received.length < count) {
        if (Date.now() > end) throw new Error(`${received.length} of ${count} e-mails arrived`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      return [...received]
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

type Part = { headers: Map<string, string>; body: string }

function splitPart(raw: string): Part {
  const at = raw.indexOf('\r\n\r\n')
  const head = at < 0 ? raw : raw.slice(0, at)
  const body = at < 0 ? '' : raw.slice(at + 4)
  const headers = new Map<string, string>()
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':')
    if (colon > 0)
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim())
  }
  return { headers, body }
}

function decodeBody(part: Part): string {
  const encoding = part.headers.get('content-transfer-encoding')?.toLowerCase()
  if (encoding === 'base64') return Buffer.from(part.body, 'base64').toString('utf8')
  if (encoding === 'quoted-printable') {
    const escaped = part.body
      .replace(/%/g, '%25')
      .replace(/=\r\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, '%$1')
    return decodeURIComponent(escaped)
  }
  return part.body
}

/** Headers and the text and HTML parts of a MIME message, enough for nodemailer's output. */
function parseMessage(raw: string): Omit<ReceivedMail, 'from' | 'to'> {
  const message = splitPart(raw)
  const type = message.headers.get('content-type') ?? 'text/plain'
  const boundary = /boundary="?([^";]+)"?/.exec(type)?.[1]
  const parts = boundary
    ? message.body
        .split(`--${boundary}`)
        .slice(1, -1)
        .map((p) => splitPart(p.replace(/^\r\n/, '')))
    : [message]
  const find = (mime: string) =>
    parts.find((p) => (p.headers.get('content-type') ?? 'text/plain').startsWith(mime))
  const text = find('text/plain')
  const html = find('text/html')
  return {
    headers: message.headers,
    text: text ? decodeBody(text).replace(/\r\n/g, '\n').trimEnd() : '',
    html: html ? decodeBody(html).replace(/\r\n/g, '\n').trimEnd() : '',
  }
}
