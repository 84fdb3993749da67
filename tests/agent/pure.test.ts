// Pure pieces of the agent driver: provider error classes, plan updates, scratchpad rules, cost, status.
import { describe, expect, test } from "bun:test"
import { applyPlanUpdate } from "../../core/agent/plan.ts"
import { classifyProviderError, failureMessage, isTransientFailure } from "../../core/agent/provider-errors.ts"
import { agentStatus } from "../../core/agent/status.ts"
import { newAgentState } from "../../core/agent/conversation.ts"
import { turnCost } from "../../core/agent/usage.ts"
import { createPlan } from "../../core/runner/plan.ts"
import { checkScratchpad } from "../../core/tools/builtin/agent.ts"

const apiError = (statusCode: number, body?: unknown, headers?: Record<string, string>) =>
  Object.assign(new Error(`HTTP ${statusCode}`), { statusCode, responseBody: body === undefined ? undefined : JSON.stringify(body), responseHeaders: headers })

describe("provider errors", () => {
  test("HTTP statuses map to what the user can act on", () => {
    expect(classifyProviderError(apiError(401, { error: { message: "Incorrect API key provided" } }))).toEqual({ kind: "auth", status: 401, message: "Incorrect API key provided" })
    expect(classifyProviderError(apiError(403)).kind).toBe("auth")
    expect(classifyProviderError(apiError(429, undefined, { "retry-after": "2" }))).toMatchObject({ kind: "rate_limit", retryAfterMs: 2000 })
    expect(classifyProviderError(apiError(529, { type: "error", error: { message: "Overloaded" } }))).toMatchObject({ kind: "server", message: "Overloaded" })
    expect(classifyProviderError(apiError(408)).kind).toBe("timeout")
    expect(classifyProviderError(apiError(400, { error: { message: "model not found" } }))).toMatchObject({ kind: "bad_request", message: "model not found" })
  })

  test("no answer at all: network, timeout, or our own cancel", () => {
    const refused = Object.assign(new Error("Cannot connect to API: Unable to connect"), { cause: Object.assign(new Error("x"), { code: "ConnectionRefused" }) })
    expect(classifyProviderError(refused).kind).toBe("network")
    expect(classifyProviderError(new DOMException("The operation timed out.", "TimeoutError")).kind).toBe("timeout")
    expect(classifyProviderError(new DOMException("aborted", "AbortError"), true).kind).toBe("cancelled")
    expect(classifyProviderError({ lastError: apiError(503) }).kind).toBe("server")
  })

  test("only what may pass by itself is retried", () => {
    expect(["rate_limit", "network", "timeout", "server"].every((k) => isTransientFailure(k as never))).toBe(true)
    expect(["auth", "bad_request", "cancelled"].some((k) => isTransientFailure(k as never))).toBe(false)
  })

  test("an auth failure names the variable to set", () => {
    const message = failureMessage({ kind: "auth", status: 401, message: "invalid api key" }, "openai", "OPENAI_API_KEY")
    expect(message).toContain("HTTP 401")
    expect(message).toContain("Set OPENAI_API_KEY to a valid key")
    expect(failureMessage({ kind: "auth", message: "no key" }, "openai-compatible", undefined)).toContain("agent.api_key_env")
  })
})

describe("the agent's plan", () => {
  test("update_plan statuses map onto plan states; dropped items are kept as skipped", () => {
    let plan = createPlan([])
    plan = applyPlanUpdate(plan, [
      { id: "a", title: "Read", status: "in_progress" },
      { id: "b", title: "Fix", status: "pending" },
      { id: "c", title: "Polish", status: "pending" },
    ])
    expect(plan.items.map((i) => [i.id, i.state, i.attempts])).toEqual([["a", "active", 1], ["b", "pending", 0], ["c", "pending", 0]])
    plan = applyPlanUpdate(plan, [
      { id: "a", title: "Read", status: "completed" },
      { id: "b", title: "Fix it", status: "done" },
    ])
    expect(plan.items.map((i) => [i.id, i.title, i.state, i.attempts])).toEqual([["a", "Read", "done", 1], ["b", "Fix it", "done", 1], ["c", "Polish", "skipped", 0]])
    expect(plan.items[2]!.note).toBe("dropped from the plan")
  })
})

describe("scratchpad rules", () => {
  test("task holds at most 10 lines; todo is a checklist", () => {
    expect(checkScratchpad("task", "one\ntwo")).toBeUndefined()
    expect(checkScratchpad("task", Array.from({ length: 11 }, (_, i) => `line ${i}`).join("\n"))).toContain("at most 10 lines")
    expect(checkScratchpad("todo", "- [ ] read\n- [x] fix")).toBeUndefined()
    expect(checkScratchpad("todo", "- [ ] read\nfix it")).toContain("todo line 2")
    expect(checkScratchpad("todo", "")).toBeUndefined()
  })
})

describe("cost and status", () => {
  test("cost comes from the policy's prices per million tokens; unknown models have none", () => {
    const prices = { "gpt-x": { input_per_mtok: 2, output_per_mtok: 8 } }
    expect(turnCost(prices, "gpt-x", { input: 500_000, output: 250_000 })).toBe(3)
    expect(turnCost(prices, "other", { input: 1, output: 1 })).toBeUndefined()
  })

  test("how an agent run ends", () => {
    const agent = newAgentState("goal")
    expect(agentStatus(agent, { status: "stopped", reason: "limit" })).toEqual({ status: "stopped", message: "limit" })
    expect(agentStatus({ ...agent, outcome: { status: "failed", message: "gave up" } }, undefined)).toEqual({ status: "failed", message: "gave up" })
    const waiting = { ...agent, waiting: { kind: "question" as const, requestId: "q1", call: { id: "c", tool: "ask_user", args: {}, key: "t1.1" }, questions: ["?"], created: true } }
    expect(agentStatus(waiting, undefined)).toEqual({ status: "paused", message: "waiting for an answer (q1)" })
  })
})
