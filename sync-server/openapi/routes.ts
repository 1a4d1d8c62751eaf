import { Hono } from 'hono'
import { html, raw } from 'hono/html'
import type { AppEnv } from '../http/env.ts'
import { buildOpenApiDocument } from './document.ts'
import { ENDPOINTS, type Endpoint } from './endpoints.ts'

/** /api/openapi.json and /api/docs, a readable reference that needs no script. */
export const openApiRoutes = new Hono<AppEnv>()

let cached: ReturnType<typeof buildOpenApiDocument> | undefined
const document = () => {
  cached ??= buildOpenApiDocument()
  return cached
}

openApiRoutes.get('/openapi.json', (c) => c.json(document()))

openApiRoutes.get('/docs', (c) => {
  const doc = document()
  const tags = doc.tags.map((t) => t.name)
  return c.html(html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pairwise API reference</title>
<style nonce="${c.get('secureHeadersNonce')}">${raw(STYLE)}</style>
</head>
<body>
<header><h1>Pairwise API reference</h1>
<p>${doc.info.description}</p>
<p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1). Mutations accept an <code>Idempotency-Key</code> header. Errors are <code>application/problem+json</code>.</p>
<nav>${tags.map((t) => html`<a href="#${slug(t)}">${t}</a> `)}</nav></header>
<main>
${tags.map(
  (tag) => html`<section id="${slug(tag)}"><h2>${tag}</h2>
${ENDPOINTS.filter((e) => e.tag === tag).map((e) => endpointHtml(e, doc))}</section>`,
)}
</main>
</body>
</html>`)
})

function endpointHtml(e: Endpoint, doc: ReturnType<typeof buildOpenApiDocument>) {
  const op = (
    doc.paths[`/api${e.path}`] as Record<
      string,
      { requestBody?: unknown; responses: Record<string, unknown> }
    >
  )[e.method.toLowerCase()]
  const body = op?.requestBody as
    | { content: { 'application/json': { schema: unknown } } }
    | undefined
  const success = e.response
    ? (op?.responses[e.response.status] as { content: Record<string, { schema: unknown }> })
    : undefined
  return html`<article id="${e.method.toLowerCase()}-${slug(e.path)}">
<h3><span class="method ${e.method.toLowerCase()}">${e.method}</span> <code>/api${e.path}</code></h3>
<p><strong>${e.summary}.</strong> ${e.description}${e.auth ? '' : ' No session needed.'}</p>
${body ? html`<details><summary>Request body</summary><pre>${JSON.stringify(body.content['application/json'].schema, null, 2)}</pre></details>` : ''}
${success ? html`<details><summary>${e.response?.status} answer</summary><pre>${JSON.stringify(success.content[e.response?.mediaType ?? 'application/json']?.schema, null, 2)}</pre></details>` : ''}
<p class="errors">Errors: ${
    Object.keys(op?.responses ?? {})
      .filter((s) => Number(s) >= 400)
      .join(', ') || 'none'
  }</p>
</article>`
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
}

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1f2937;background:#f8fafc}
header,main{max-width:60rem;margin:0 auto;padding:1rem 1.5rem}
header{border-bottom:1px solid #e2e8f0}
h1{margin:.5rem 0}
nav a{margin-right:1rem}
article{background:#fff;border:1px solid #e2e8f0;border-radius:.5rem;padding:.75rem 1rem;margin:.75rem 0}
h3{font-size:1rem;margin:.25rem 0}
.method{display:inline-block;min-width:4rem;text-align:center;border-radius:.25rem;color:#fff;font-size:.8rem;padding:.1rem .4rem}
.get{background:#2563eb}.post{background:#16a34a}.patch{background:#d97706}.delete{background:#dc2626}
pre{background:#f1f5f9;padding:.75rem;overflow:auto;font-size:.8rem;border-radius:.25rem}
.errors{color:#64748b;font-size:.9rem;margin:.25rem 0}
a{color:#2563eb}
`
