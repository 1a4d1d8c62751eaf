import { getRequestListener } from '@hono/node-server'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { heldText } from './held-text.ts'

// The Node server's classes in place of the global Request and Response, as in the running server.
getRequestListener(() => new Response(null))
const NodeServerResponse = globalThis.Response

describe('heldText', () => {
  // If an upgrade of @hono/node-server changes how it holds a body, this fails: the push still
  // works (text() is read instead), but each replayed answer costs a stream again (issue 15).
  it("reads the text a route's answer was made with, from the Node server's response, leaving its body unread", async () => {
    const app = new Hono().get('/', (c) => c.json({ subject: 'Rust ☃ "quoted"', n: 1 }, 201))
    const res = await app.request('/')
    expect(res).toBeInstanceOf(NodeServerResponse)
    expect(heldText(res)).toBe('{"subject":"Rust ☃ \\"quoted\\"","n":1}')
    expect(res.status).toBe(201)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await res.text()).toBe('{"subject":"Rust ☃ \\"quoted\\"","n":1}')
  })

  it('answers undefined for a body not held as a string', async () => {
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('streamed'))
        controller.close()
      },
    })
    for (const body of [stream, new TextEncoder().encode('bytes'), null]) {
      expect(heldText(new Response(body))).toBeUndefined()
    }
    expect(heldText(new Response(''))).toBe('')
  })

  it('answers undefined once the response was turned into a fetch Response', async () => {
    const res = new Response('made')
    expect(res.body).not.toBeNull() // reading the body builds the fetch Response and lets go of the held one
    expect(heldText(res)).toBeUndefined()
    expect(await res.text()).toBe('made')
  })

  it("answers undefined for fetch's own Response", async () => {
    const res = await fetch('data:text/plain,hello')
    expect(res).not.toBeInstanceOf(NodeServerResponse)
    expect(heldText(res)).toBeUndefined()
    expect(await res.text()).toBe('hello')
  })
})
