/** The Chromium the browser tests drive: CHROMIUM_PATH, else the Debian package's /usr/bin/chromium. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || '/usr/bin/chromium'
}
