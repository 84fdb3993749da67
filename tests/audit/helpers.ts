// A database with audit rows written the way the runner writes them: appendAudit inside store.tx.
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { AuditInput } from "../../core/audit/write.ts"
import { appendAudit } from "../../core/audit/write.ts"
import { openStore, type Store } from "../../core/store/open.ts"

export function tempDb(): string {
  return join(mkdtempSync(join(tmpdir(), "ccode-audit-")), "ccode.db")
}

export function storeWith(rows: AuditInput[], path = tempDb()): Store {
  const store = openStore(path)
  for (const row of rows) store.tx(() => appendAudit(store, row))
  return store
}

/** A small but varied run: start, decisions, a denial, an approval by a person, a guard, the end. */
export function sampleRun(runId: string, t0 = Date.UTC(2026, 0, 31, 12)): AuditInput[] {
  return [
    { ts: t0, runId, type: "session_start", actor: "user", action: "run", reason: "ccode run task.yaml" },
    { ts: t0 + 10, runId, callId: "c1", type: "decision", actor: "policy", tool: "shell", action: "decide", result: "approved", risk: "low", autoApproved: true, reason: "risk low within threshold", data: JSON.stringify({ args: { command: "bun test" } }) },
    { ts: t0 + 20, runId, callId: "c1", type: "tool_call", actor: "agent", tool: "shell", action: "run", result: "success", risk: "low" },
    { ts: t0 + 30, runId, callId: "c2", type: "decision", actor: "policy", tool: "shell", action: "decide", result: "denied", risk: "critical", autoApproved: false, reason: "denied by rule no-force-push" },
    { ts: t0 + 40, runId, callId: "c3", type: "decision", actor: "policy", tool: "write_file", action: "decide", result: "asked", risk: "medium", reason: "risk medium above threshold", data: JSON.stringify({ args: { path: "src/a.ts" } }) },
    { ts: t0 + 50, runId, callId: "c3", type: "permission", actor: "user", tool: "write_file", action: "approve:approval", result: "approved", autoApproved: false, reason: "write src/a.ts — approved at the prompt" },
    { ts: t0 + 60, runId, callId: "c3", type: "tool_call", actor: "agent", tool: "write_file", action: "run", result: "failed", risk: "medium", reason: "EACCES" },
    { ts: t0 + 70, runId, type: "state_change", actor: "guard", action: "guard:loop", result: "denied", reason: "same call repeated 3 times" },
    { ts: t0 + 1500, runId, type: "session_end", actor: "system", action: "failed", result: "failed", reason: "step b failed" },
  ]
}
