// Example plugin: HTTP requests whose risk depends on the URL and the method, so a policy can allow
// reads from known hosts (`args: { url: "^https://api\\.example\\.com/" }`) and ask for the rest.
// Redirects are not followed: the policy approved this URL, not wherever it points next.
import { defineTool, z } from "ccode/plugin"

const READS = ["GET", "HEAD", "OPTIONS"]
const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/

export default defineTool({
  name: "http_request",
  description: "Send an HTTP request; returns the status line, content type and body (text, capped). Redirects are returned, not followed.",
  args: z.object({
    url: z.string().url().refine((u) => /^https?:\/\//i.test(u), "only http:// and https:// URLs"),
    method: z.enum(["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"]).default("GET"),
    headers: z.record(z.string(), z.string()).optional(),
    body: z.string().optional(),
    max_bytes: z.number().int().positive().max(10_000_000).default(1_000_000),
  }),
  risk: ({ url, method }) => {
    const target = new URL(url)
    if (target.username || target.password) return "high" // credentials in the URL
    const secure = target.protocol === "https:" || LOOPBACK.test(target.hostname)
    if (READS.includes(method)) return secure ? "low" : "medium"
    if (method === "DELETE") return "high"
    return secure ? "medium" : "high"
  },
  effects: ["network"],
  paths: [],
  timeout: "30s",
  async run({ url, method, headers, body, max_bytes }, ctx) {
    let res: Response
    try {
      res = await fetch(url, { method, headers, body, redirect: "manual", signal: ctx.signal })
    } catch (error) {
      if (ctx.signal.aborted) throw error
      return { error: { code: "NETWORK_ERROR", type: "network", message: `${method} ${url}: ${(error as Error).message}` } }
    }
    const { text, truncated } = await readCapped(res, max_bytes)
    const type = res.headers.get("content-type") ?? ""
    const location = res.headers.get("location")
    const head = `HTTP ${res.status} ${res.statusText}${type ? `\ncontent-type: ${type}` : ""}${location ? `\nlocation: ${location} (not followed)` : ""}`
    const out = `${head}\n\n${text}${truncated ? `\n[... body cut at ${max_bytes} bytes]` : ""}`
    const data = { status: res.status, content_type: type, location, truncated }
    if (res.status >= 400) return { text: out, data, error: { code: `HTTP_${res.status}`, type: "execution", message: `${method} ${url} answered ${res.status} ${res.statusText}` } }
    return { text: out, data }
  },
})

async function readCapped(res: Response, max: number): Promise<{ text: string; truncated: boolean }> {
  if (!res.body) return { text: "", truncated: false }
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = res.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    size += value.length
    if (size > max) {
      await reader.cancel()
      break
    }
  }
  const bytes = new Uint8Array(Math.min(size, max))
  let at = 0
  for (const chunk of chunks) {
    const part = chunk.subarray(0, Math.max(0, bytes.length - at))
    bytes.set(part, at)
    at += part.length
  }
  return { text: new TextDecoder().decode(bytes), truncated: size > max }
}
