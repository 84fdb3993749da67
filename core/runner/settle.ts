// Settling a paused run's requests from outside the run (`ccode approve|deny|answer`): each
// settlement is checked, stored and audited in one transaction. `ccode resume` then acts on it.
import { homedir } from "node:os"
import { appendAudit } from "../audit/write.ts"
import { createRedactor } from "../redact/index.ts"
import type { Store } from "../store/open.ts"
import { getRequest, requestsOf, settleRequest, type RequestRow } from "../store/requests.ts"
import { findRun } from "../store/runs.ts"

export class RequestError extends Error {
  readonly exitCode = 2
}

export type Settlement =
  | { action: "approve"; forRun?: boolean }
  | { action: "deny"; reason?: string }
  | { action: "answer"; text: string }

const IN_FLIGHT_ANSWERS = ["done", "skip"]

/** Settle one request (by id) or all pending ones (`all`); returns what was settled. */
export function settle(store: Store, runIdOrPrefix: string, requestId: string | "all", how: Settlement, by = "user"): RequestRow[] {
  const run = findRun(store, runIdOrPrefix)
  const targets = requestId === "all" ? requestsOf(store, run.id, "pending").filter((r) => fits(r, how)) : [one(store, run.id, requestId)]
  if (!targets.length) throw new RequestError(`run ${run.id} has no pending requests${how.action === "answer" ? "" : " to " + how.action}`)
  for (const request of targets) check(request, how)
  // what a person types is stored and shown: never with a secret in it (the run's own policy
  // patterns are not known here; the environment's secrets and the built-in rules are)
  const redactor = createRedactor({ env: process.env, home: homedir() })
  store.tx(() => {
    for (const request of targets) {
      const status = how.action === "approve" ? "approved" : how.action === "deny" ? "denied" : "answered"
      const typed = how.action === "deny" ? how.reason ?? null : how.action === "answer" ? how.text : null
      const answer = typed === null ? null : redactor.text(typed)
      settleRequest(store, request.id, { status, answer, forRun: how.action === "approve" && Boolean(how.forRun), settledBy: by })
      appendAudit(store, {
        runId: run.id, callId: request.callId, type: "permission", actor: "user", action: `${how.action}:${request.kind}`,
        result: how.action === "deny" ? "denied" : "approved", autoApproved: false,
        reason: redactor.text(`${request.title}${answer ? ` — ${how.action === "answer" ? "answered" : "reason"}: ${answer}` : ""}`),
        data: JSON.stringify({ request: request.id, kind: request.kind, for_run: how.action === "approve" && Boolean(how.forRun) }),
      })
    }
  })
  return targets.map((t) => getRequest(store, t.id)!)
}

function one(store: Store, runId: string, requestId: string): RequestRow {
  const request = getRequest(store, requestId)
  if (!request || request.runId !== runId) throw new RequestError(`run ${runId} has no request ${requestId}; see \`ccode runs show ${runId}\``)
  if (request.status !== "pending") throw new RequestError(`request ${requestId} is already ${request.status}`)
  return request
}

function fits(request: RequestRow, how: Settlement): boolean {
  if (how.action === "answer") return request.kind === "question"
  return request.kind !== "question" || how.action === "deny"
}

function check(request: RequestRow, how: Settlement): void {
  if (how.action === "approve" && request.kind === "question") {
    throw new RequestError(`request ${request.id} is a question; answer it with \`ccode answer ${request.runId} ${request.id} TEXT\``)
  }
  if (how.action === "answer" && request.kind !== "question" && request.kind !== "in_flight") {
    throw new RequestError(`request ${request.id} is a${request.kind === "approval" ? "n" : ""} ${request.kind}; use \`ccode approve\` or \`ccode deny\``)
  }
  if (how.action === "answer" && request.kind === "in_flight" && !IN_FLIGHT_ANSWERS.includes(how.text.trim())) {
    throw new RequestError(`an in-flight request takes "done" (it finished) or "skip"; approve re-runs it, deny fails it`)
  }
  if (how.action === "answer" && !how.text.trim()) throw new RequestError("the answer is empty")
}
