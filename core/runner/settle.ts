// Settling a paused run's requests from outside the run (`ccode approve|deny|answer`): each
// settlement is checked, stored and audited in one transaction. `ccode resume` then acts on it.
import { homedir } from "node:os"
import type { AuditInput } from "../audit/write.ts"
import { createRedactor } from "../redact/index.ts"
import type { RunStore, Settlement as Settled } from "../runstore/api.ts"
import type { RequestRow } from "../store/requests.ts"

export class RequestError extends Error {
  readonly exitCode = 2
}

export type Settlement =
  | { action: "approve"; forRun?: boolean }
  | { action: "deny"; reason?: string }
  | { action: "answer"; text: string }

const IN_FLIGHT_ANSWERS = ["done", "skip"]

/** Settle one request (by id) or all pending ones (`all`); returns what was settled. */
export async function settle(store: RunStore, runIdOrPrefix: string, requestId: string | "all", how: Settlement, by = "user"): Promise<RequestRow[]> {
  const run = await store.findRun(runIdOrPrefix)
  const targets = requestId === "all" ? (await store.requestsOf(run.id, "pending")).filter((r) => fits(r, how)) : [await one(store, run.id, requestId)]
  if (!targets.length) throw new RequestError(`run ${run.id} has no pending requests${how.action === "answer" ? "" : " to " + how.action}`)
  for (const request of targets) check(request, how)
  // what a person types is stored and shown: never with a secret in it (the run's own policy
  // patterns are not known here; the environment's secrets and the built-in rules are)
  const redactor = createRedactor({ env: process.env, home: homedir() })
  const settlements: Settled[] = []
  const audit: AuditInput[] = []
  for (const request of targets) {
    const status = how.action === "approve" ? "approved" : how.action === "deny" ? "denied" : "answered"
    const typed = how.action === "deny" ? how.reason ?? null : how.action === "answer" ? how.text : null
    const answer = typed === null ? null : redactor.text(typed)
    settlements.push({ id: request.id, status, answer, forRun: how.action === "approve" && Boolean(how.forRun), settledBy: by })
    audit.push({
      runId: run.id, callId: request.callId, type: "permission", actor: "user", action: `${how.action}:${request.kind}`,
      result: how.action === "deny" ? "denied" : "approved", autoApproved: false,
      reason: redactor.text(`${request.title}${answer ? ` — ${how.action === "answer" ? "answered" : "reason"}: ${answer}` : ""}`),
      data: JSON.stringify({ request: request.id, kind: request.kind, for_run: how.action === "approve" && Boolean(how.forRun) }),
    })
  }
  // one transaction; a request settled meanwhile (from another machine) fails it whole: RequestConflict, exit 2
  await store.settleRequests(settlements, audit)
  return Promise.all(targets.map(async (t) => (await store.getRequest(t.id))!))
}

async function one(store: RunStore, runId: string, requestId: string): Promise<RequestRow> {
  const request = await store.getRequest(requestId)
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
