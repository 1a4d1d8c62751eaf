import { Hono } from 'hono'
import { html, raw } from 'hono/html'
import type { AppEnv } from '../http/env.ts'
import { buildOpenApiDocument, type OpenApiDocument } from './document.ts'

type Operation = {
  tags?: string[]
  summary?: string
  description?: string
  security?: unknown[]
  requestBody?: { content: Record<string, { schema: unknown }> }
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>
}

/**
 * /api/openapi.json and /api/docs (a readable reference that needs no
 * script), both generated from the routes `app` declares. Undocumented
 * themselves: they describe the API rather than being part of it.
 */
export function createOpenApiRoutes(app: Hono<AppEnv>) {
  let cached: Promise<OpenApiDocument> | undefined
  const document = () => {
    cached ??= buildOpenApiDocument(app)
    return cached
  }
  const json = new Hono<AppEnv>().get('/', async (c) => c.json(await document()))
  const reference = new Hono<AppEnv>().get('/', async (c) => {
    const doc = await document()
    const operations = Object.entries(doc.paths ?? {}).flatMap(([path, byMethod]) =>
      Object.entries(byMethod as Record<string, Operation>).map(([method, op]) => ({
        path,
        method,
        op,
      })),
    )
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
${operations.filter((o) => o.op.tags?.includes(tag)).map((o) => operationHtml(o.method, o.path, o.op))}</section>`,
)}
</main>
</body>
</html>`)
  })
  return { json, reference }
}

function operationHtml(method: string, path: string, op: Operation) {
  const body = op.requestBody?.content['application/json']?.schema
  const success = Object.entries(op.responses).find(([status]) => Number(status) < 400)
  const successSchema = success ? Object.values(success[1].content ?? {})[0]?.schema : undefined
  const errors = Object.keys(op.responses).filter((s) => Number(s) >= 400)
  return html`<article id="${method}-${slug(path)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${path}</code></h3>
<p><strong>${op.summary}.</strong> ${op.description}${op.security?.length === 0 ? ' No session needed.' : ''}</p>
${body ? html`<details><summary>Request body</summary><pre>${JSON.stringify(body, null, 2)}</pre></details>` : ''}
${successSchema ? html`<details><summary>${success?.[0]} answer</summary><pre>${JSON.stringify(successSchema, null, 2)}</pre></details>` : ''}
<p class="errors">Errors: ${errors.join(', ') || 'none'}</p>
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
