// Saying once per run (terminal, events, audit) whether its shell calls run inside the OS sandbox,
// and why not when they cannot.
import { homedir } from "node:os"
import { join } from "node:path"
import { runSandbox, type Sandbox, type SandboxStatus } from "../sandbox/session.ts"
import type { Policy } from "../policy/types.ts"
import { ccodeOwnPaths } from "../policy/owndirs.ts"
import { sandboxOwnPaths } from "../sandbox/defaults.ts"
import type { RunContext } from "./context.ts"
import { forget, track } from "../tools/process/kill.ts"
import { bootTicks, isLive, withDescendants } from "../tools/process/table.ts"

export function reportSandbox(ctx: RunContext, status: SandboxStatus): void {
  const sandboxed = status.bwrap !== undefined
  // off by the user's own choice is recorded, not warned about; auto that could not is said aloud
  const message = !sandboxed && status.mode !== "off"
    ? `OS sandbox unavailable, shell calls run without it: ${status.reason}`
    : status.notes.join("; ") || undefined
  ctx.recorder.event("sandbox", { sandboxed, mode: status.mode, reason: status.reason ?? null, ...(message ? { message } : {}) })
  ctx.recorder.audit({
    type: "policy", actor: "policy", action: "sandbox", result: sandboxed ? "approved" : status.mode === "off" ? "approved" : "error",
    reason: message ?? (sandboxed ? `shell calls run in the OS sandbox (${status.bwrap})` : status.reason ?? "sandbox off"),
    data: { sandboxed, mode: status.mode, reason: status.reason ?? null, notes: status.notes },
  })
  // a host allowlist's every connection, allowed or refused: host and port only, never paths, headers or bodies
  ctx.sandbox?.onNetwork((callId, c) => {
    const fields = { call: callId ?? null, method: c.method, host: c.host, port: c.port, allowed: c.allowed, reason: c.reason ?? null, address: c.address ?? null }
    ctx.recorder.event("sandbox.network", fields)
    ctx.recorder.audit({
      type: "policy", actor: "policy", action: "network", callId, result: !c.allowed ? "denied" : c.reason ? "failed" : "approved",
      reason: `${c.method} ${c.host}:${c.port} ${!c.allowed ? `refused: ${c.reason}` : c.reason ? `allowed, ${c.reason}` : "allowed"}`, data: fields,
    })
  })
}

/**
 * The sandbox the run's tools spawn through (undefined: they run without one). The run's CCODE_HOME and
 * database file (`dbFile`, SQLite), with ccode's configuration and default places, are hidden from every call.
 */
export function sandboxOfRun(status: SandboxStatus, policy: Policy, workspace: string, ccodeHome: string, runId: string, dbFile?: string): Sandbox | undefined {
  const home = homedir()
  return runSandbox({
    status, policy: policy.sandbox, protectedGlobs: policy.workspace.protected, workspace, home, runDir: join(ccodeHome, "runs", runId), netDir: join(ccodeHome, "net"),
    processes: { track, forget, bootTicks, isLive, withDescendants },
    own: sandboxOwnPaths(ccodeOwnPaths(process.env, home), { dirs: [ccodeHome], dbs: dbFile ? [dbFile] : [] }),
  })
}
