import { html, raw } from 'hono/html'
import type { HtmlEscapedString } from 'hono/utils/html'
import { initialsOf } from '../../shared/user.ts'

export type DevUser = { username: string; fullName: string; isAdmin: boolean }

/**
 * The development sign-in page: where "Sign in with Microsoft" leads on a
 * server without Entra credentials. Plain HTML forms, no script, styled with
 * the answer's CSP nonce. Never served in production.
 */
export function devSignInPage(options: {
  users: readonly DevUser[]
  nonce: string | undefined
  returnTo: string | undefined
  error?: string
  username?: string
}): HtmlEscapedString | Promise<HtmlEscapedString> {
  const { users, nonce, returnTo, error, username } = options
  const returnField = returnTo
    ? html`<input type="hidden" name="returnTo" value="${returnTo}">`
    : ''
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Development sign-in · Pairwise</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style nonce="${nonce}">${raw(STYLE)}</style>
</head>
<body>
<main>
<header>
<img src="/favicon.svg" alt="" width="40" height="40">
<div><p class="eyebrow">Pairwise</p><h1>Development sign-in</h1></div>
</header>
<p class="notice" role="note"><strong>For development only.</strong> This server has no Microsoft Entra ID credentials, so anyone can sign in here as any user. A production server never offers this page.</p>
${error ? html`<div class="error" role="alert" id="error"><strong>Login Failed</strong><p>${error}</p></div>` : ''}
<section aria-labelledby="existing">
<h2 id="existing">Sign in as an existing user</h2>
${
  users.length
    ? html`<form method="post" action="/api/auth/dev-login" class="users">
${returnField}
${users.map(
  (u) => html`<button type="submit" name="userId" value="${u.username}">
<span class="avatar" aria-hidden="true">${initialsOf(u.fullName, u.username)}</span>
<span class="who"><span class="name">${u.fullName || u.username}</span><span class="username">@${u.username}</span></span>
${u.isAdmin ? html`<span class="badge">Admin</span>` : ''}
</button>`,
)}
</form>`
    : html`<p class="empty">Nobody has signed in yet. Create a user below.</p>`
}
</section>
<section aria-labelledby="new">
<h2 id="new">Sign in as a new user</h2>
<form method="post" action="/api/auth/dev-login" class="new">
${returnField}
<label for="username">Username</label>
<div class="row">
<input id="username" name="userId" required maxlength="64" autocomplete="off" spellcheck="false"
 pattern="[A-Za-z0-9._@\\-]+" aria-describedby="username-hint${error ? ' error' : ''}" value="${username ?? ''}">
<button type="submit" class="primary">Sign in</button>
</div>
<p id="username-hint" class="hint">Letters, digits and . _ - @. A name nobody has yet creates a new, non-admin user.</p>
</form>
</section>
<p class="back"><a href="/">Back to Pairwise</a></p>
</main>
</body>
</html>`
}

const STYLE = `
:root{color-scheme:light dark;--bg:#f5f6fb;--card:#fff;--text:#1e2233;--muted:#5b6275;--line:#dde1ec;--accent:#4f46e5;--accent-text:#fff;--warn-bg:#fff7e0;--warn-line:#f0c75e;--warn-text:#5c4300;--err-bg:#fdecec;--err-text:#9b1c1c}
@media (prefers-color-scheme:dark){:root{--bg:#11131c;--card:#1a1d29;--text:#e8eaf2;--muted:#a3a9bb;--line:#2e3344;--accent:#8b85ff;--accent-text:#11131c;--warn-bg:#3a2f0c;--warn-line:#8a6d1f;--warn-text:#f5dc97;--err-bg:#3b1717;--err-text:#f7b4b4}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:34rem;margin:2.5rem auto;padding:1.75rem;background:var(--card);border:1px solid var(--line);border-radius:16px;box-shadow:0 10px 30px rgb(20 24 40 / .08)}
header{display:flex;gap:.85rem;align-items:center;margin-bottom:1rem}
.eyebrow{margin:0;font-size:.8rem;font-weight:600;letter-spacing:.06em;text-transform:uppercase;color:var(--muted)}
h1{margin:0;font-size:1.5rem;line-height:1.2}
h2{font-size:1rem;margin:1.5rem 0 .6rem}
.notice{margin:0;padding:.75rem .9rem;border:1px solid var(--warn-line);background:var(--warn-bg);color:var(--warn-text);border-radius:10px;font-size:.93rem}
.error{margin:1rem 0 0;padding:.75rem .9rem;background:var(--err-bg);color:var(--err-text);border-radius:10px}.error strong{display:block;font-weight:600}.error p{margin:.25rem 0 0}
.users{display:grid;gap:.4rem;max-height:22rem;overflow:auto;padding:2px}
.users button{display:flex;align-items:center;gap:.75rem;width:100%;padding:.55rem .7rem;border:1px solid var(--line);border-radius:10px;background:transparent;color:inherit;font:inherit;text-align:left;cursor:pointer}
.users button:hover{border-color:var(--accent)}
button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.avatar{flex:none;display:grid;place-items:center;width:2.25rem;height:2.25rem;border-radius:50%;background:var(--accent);color:var(--accent-text);font-weight:600;font-size:.85rem}
.who{display:flex;flex-direction:column;min-width:0;flex:1}
.name{font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.username{color:var(--muted);font-size:.87rem}
.badge{flex:none;font-size:.75rem;font-weight:600;padding:.1rem .5rem;border-radius:999px;border:1px solid var(--accent);color:var(--accent)}
label{display:block;font-weight:600;font-size:.93rem;margin-bottom:.3rem}
.row{display:flex;gap:.5rem}
input{flex:1;min-width:0;padding:.55rem .7rem;border:1px solid var(--line);border-radius:10px;background:var(--bg);color:inherit;font:inherit}
.primary{padding:.55rem 1.1rem;border:0;border-radius:10px;background:var(--accent);color:var(--accent-text);font:inherit;font-weight:600;cursor:pointer}
.hint,.empty{color:var(--muted);font-size:.87rem;margin:.4rem 0 0}
.back{margin:1.5rem 0 0;font-size:.93rem}
a{color:var(--accent)}
@media (max-width:600px){main{margin:0;min-height:100vh;border:0;border-radius:0;box-shadow:none;padding:1.25rem}}
`
