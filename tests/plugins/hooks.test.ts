// Plugin hooks can only restrict: deny a call or rewrite its arguments (decided again by the caller),
// in load order; a hook that fails, hangs or answers nonsense denies the call instead of letting it through.
import { describe, expect, test } from "bun:test"
import { afterHooks, applyHooks, decideWithHooks, type HookCall } from "../../core/plugins/hooks.ts"
import type { PluginHooks } from "../../core/plugins/validate.ts"
import type { Decision } from "../../core/policy/types.ts"
import type { ToolResult } from "../../core/tools/types.ts"

const call: HookCall = { tool: "http_request", args: { url: "http://example.test/a" }, cwd: "/w", workspace: "/w", runId: "r1", callId: "c1" }
const hook = (source: string, beforeCall: PluginHooks["beforeCall"], afterCall?: PluginHooks["afterCall"]): PluginHooks => ({ source, beforeCall, afterCall })

describe("beforeCall hooks", () => {
  test("no hooks, or hooks that return nothing: the call goes on unchanged", async () => {
    expect(await applyHooks([], call)).toEqual({ kind: "continue", args: call.args, rewrittenBy: [] })
    expect(await applyHooks([hook("/a.ts", () => undefined)], call)).toEqual({ kind: "continue", args: call.args, rewrittenBy: [] })
  })

  test("a deny stops the call with the hook's reason and names the plugin", async () => {
    const verdict = await applyHooks([hook("/a.ts", () => ({ deny: "no plain http" }))], call)
    expect(verdict).toEqual({ kind: "deny", source: "/a.ts", reason: "no plain http (beforeCall hook of /a.ts)" })
  })

  test("rewrites chain in load order and say who rewrote; a later deny still wins", async () => {
    const https = hook("/1.ts", (c) => ({ args: { ...c.args, url: String(c.args.url).replace("http:", "https:") } }))
    const seen: unknown[] = []
    const watcher = hook("/2.ts", (c) => void seen.push(c.args.url))
    expect(await applyHooks([https, watcher], call)).toEqual({
      kind: "continue", args: { url: "https://example.test/a" }, rewrittenBy: ["/1.ts"],
    })
    expect(seen).toEqual(["https://example.test/a"])
    const denier = hook("/3.ts", (c) => (String(c.args.url).startsWith("https:") ? { deny: "no network at all" } : undefined))
    expect((await applyHooks([https, denier], call)).kind).toBe("deny")
  })

  test("returning the same arguments is not a rewrite", async () => {
    expect(await applyHooks([hook("/a.ts", (c) => ({ args: { ...c.args } }))], call)).toEqual({ kind: "continue", args: call.args, rewrittenBy: [] })
  })

  test("a hook cannot change the arguments behind the caller's back by mutating them", async () => {
    const args = { url: "http://example.test/a" }
    await applyHooks([hook("/a.ts", (c) => void (c.args.url = "file:///etc/passwd"))], { ...call, args })
    expect(args.url).toBe("http://example.test/a")
  })

  test("a hook cannot approve: anything but nothing, {deny} or {args} denies", async () => {
    const verdict = await applyHooks([hook("/a.ts", () => ({ allow: true }) as never)], call)
    expect(verdict).toEqual({ kind: "deny", source: "/a.ts", reason: "the beforeCall hook of /a.ts returned something other than nothing, {deny: reason} or {args}" })
    expect((await applyHooks([hook("/a.ts", () => ({ args: [1, 2] }) as never)], call)).kind).toBe("deny")
  })

  test("a hook that throws or rejects denies the call (fail closed)", async () => {
    const thrown = await applyHooks([hook("/a.ts", () => { throw new Error("bug in hook") })], call)
    expect(thrown).toEqual({ kind: "deny", source: "/a.ts", reason: "the beforeCall hook of /a.ts failed: bug in hook" })
    const rejected = await applyHooks([hook("/b.ts", async () => Promise.reject(new Error("async bug")))], call)
    expect(rejected.kind === "deny" && rejected.reason).toBe("the beforeCall hook of /b.ts failed: async bug")
  })

  test("a hook that never answers denies the call after its timeout", async () => {
    const started = Date.now()
    const verdict = await applyHooks([hook("/slow.ts", () => new Promise(() => {}))], call, 100)
    expect(verdict.kind).toBe("deny")
    expect(verdict.kind === "deny" && verdict.reason).toContain("no answer within 100ms")
    expect(Date.now() - started).toBeLessThan(2000)
  })
})

describe("afterCall hooks", () => {
  const result: ToolResult = { status: "ok", text: "200", stats: { duration_ms: 3, bytes: 3 } }

  test("every hook sees the result; failures are returned to report, not thrown", async () => {
    const seen: string[] = []
    const problems = await afterHooks(
      [
        hook("/a.ts", undefined, (c, r) => void seen.push(`${c.tool} ${r.status}`)),
        hook("/b.ts", undefined, () => { throw new Error("log full") }),
        hook("/c.ts", undefined, (_c, r) => void seen.push(r.text)),
      ],
      call,
      result,
    )
    expect(seen).toEqual(["http_request ok", "200"])
    expect(problems).toEqual(["the afterCall hook of /b.ts failed: log full"])
  })
})

describe("the decision with hooks applied (what runCall uses)", () => {
  const decision = (kind: Decision["decision"], risk: Decision["risk"] = "low", reason = "policy"): Decision =>
    ({ decision: kind, risk, reason, by: "threshold", rules: [], commands: [], on_ask: "pause" })
  const redecideTo = (d: Decision) => {
    const seen: unknown[] = []
    return { seen, redecide: async (args: Record<string, unknown>) => (seen.push(args), d) }
  }

  test("a call the policy denied never reaches the hooks", async () => {
    let called = false
    const out = await decideWithHooks({ hooks: [hook("/a.ts", () => void (called = true))], call, decision: decision("deny"), redecide: async () => decision("allow") })
    expect([called, out.decision.decision]).toEqual([false, "deny"])
  })

  test("a hook's deny becomes the decision, with the plugin as its rule", async () => {
    const out = await decideWithHooks({ hooks: [hook("/p/https.ts", () => ({ deny: "https only" }))], call, decision: decision("allow"), redecide: async () => decision("allow") })
    expect(out.decision).toMatchObject({ decision: "deny", by: "rule", reason: "https only (beforeCall hook of /p/https.ts)" })
    expect(out.decision.rules).toEqual([{ id: "hook:https.ts", decision: "deny", source: "/p/https.ts", reason: "https only (beforeCall hook of /p/https.ts)" }])
  })

  test("rewritten arguments are decided again, and the stricter decision wins", async () => {
    const rewrite = hook("/p/rw.ts", (c) => ({ args: { ...c.args, url: "https://example.test/a" } }))
    const stricter = redecideTo(decision("ask", "medium", "new args need a person"))
    const out = await decideWithHooks({ hooks: [rewrite], call, decision: decision("allow"), redecide: stricter.redecide })
    expect(stricter.seen).toEqual([{ url: "https://example.test/a" }])
    expect(out.args).toEqual({ url: "https://example.test/a" })
    expect(out.decision).toMatchObject({ decision: "ask", risk: "medium", reason: "new args need a person (arguments rewritten by /p/rw.ts)" })

    // a rewrite to something harmless does not approve what the policy asked about
    const laxer = redecideTo(decision("allow", "safe", "fine now"))
    const kept = await decideWithHooks({ hooks: [rewrite], call, decision: decision("ask", "medium", "needs a person"), redecide: laxer.redecide })
    expect(kept.decision).toMatchObject({ decision: "ask", risk: "medium", reason: "needs a person (arguments rewritten by /p/rw.ts)" })
  })

  test("hooks that change nothing leave the decision as it was", async () => {
    const before = decision("allow")
    const out = await decideWithHooks({ hooks: [hook("/a.ts", () => undefined)], call, decision: before, redecide: async () => decision("deny") })
    expect(out).toEqual({ args: call.args, decision: before })
  })
})
