// An example ccode plugin: wait until a URL answers (a dev server starting, a container coming up).
// Copy it, rename the tool, change run(). Check it with `ccode plugins check .ccode/plugins/example.ts`.
import { defineTool, z } from "ccode/plugin"

export default defineTool({
  name: "wait_for_url",
  description: "Poll a URL until it answers with a status below 500, or give up at the timeout",
  args: z.object({
    url: z.string().url().describe("http:// or https:// URL to poll"),
    every_ms: z.number().int().min(50).max(60_000).default(500).describe("pause between attempts"),
  }),
  // computed from the arguments: polling this machine is safe, anything else is a network call
  risk: ({ url }) => (/^https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?(\/|$)/.test(url) ? "safe" : "low"),
  timeout: "2m",
  idempotent: true,
  // what it touches: the network only, no files (so path rules and snapshots leave it alone)
  effects: ["network"],
  paths: [],
  async run({ url, every_ms }, ctx) {
    for (let attempt = 1; ; attempt++) {
      try {
        // ctx.signal fires at the timeout or when the run is cancelled: pass it on, and stop when it does
        const res = await fetch(url, { signal: ctx.signal })
        if (res.status < 500) return { text: `${url} answered ${res.status} after ${attempt} attempts`, data: { status: res.status, attempts: attempt } }
        ctx.log(`attempt ${attempt}: ${res.status}\n`)
      } catch (error) {
        if (ctx.signal.aborted) throw error
        ctx.log(`attempt ${attempt}: ${(error as Error).message}\n`)
      }
      await new Promise((resolve) => setTimeout(resolve, every_ms))
    }
  },
})
