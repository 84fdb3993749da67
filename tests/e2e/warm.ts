// The warm hook's test helpers: where a sandbox's server listens, its processes, stopping them, and the
// audit rows to compare. Every test stops its servers; the files' afterAll checks none is left.
import { afterAll, expect } from "bun:test"
import { Database } from "bun:sqlite"
import { existsSync, readFileSync, rmSync } from "node:fs"
import { binaryIdentity, socketPath } from "../../cli/warm/where.ts"
import { binary, ccode, sandbox, waitFor, type Sandbox } from "./harness.ts"

/**
 * A maker of sandboxes for warm-hook tests (call once, at a test file's top level): each with a short
 * server idle time (a server a test forgets stops on its own) plus `env`; after the file, their servers
 * and workers are killed, the sandboxes removed, and none of their processes is left running.
 */
export function warmSandboxes(env: Record<string, string> = {}): (idleMs?: number) => Sandbox {
  const made: Sandbox[] = []
  afterAll(async () => {
    for (const sb of made) {
      await stopWarm(sb.root)
      rmSync(sb.root, { recursive: true, force: true })
    }
    expect(made.flatMap((sb) => warmProcesses(sb.root))).toEqual([])
  })
  return (idleMs = 20_000) => {
    const sb = sandbox()
    made.push(sb)
    Object.assign(sb.env, env, { CCODE_HOOK_WARM_IDLE_MS: String(idleMs) })
    return sb
  }
}

/** The socket a `hook --warm` call in this sandbox (its CCODE_HOME and CCODE_DB) talks to. */
export async function socketOf(sb: Sandbox, env: Record<string, string> = {}): Promise<string> {
  const path = socketPath({ ...sb.env, ...env }, undefined, binaryIdentity(await binary()), process.getuid!())
  if (!path) throw new Error("socket path too long")
  return path
}

/** The pids of the warm servers and workers whose command line names this sandbox (its socket). */
export function warmProcesses(root: string): number[] {
  const r = Bun.spawnSync(["pgrep", "-f", `__hook-(server|worker)`], { stdout: "pipe" })
  const pids = r.stdout.toString().split("\n").filter(Boolean).map(Number)
  // a worker's command line has no path: it is this sandbox's when its environment names the sandbox
  return pids.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(root) || readFileSync(`/proc/${pid}/environ`, "utf8").includes(root)
    } catch {
      return false
    }
  })
}

/** Every warm process of the sandbox killed, and gone. */
export async function stopWarm(root: string): Promise<void> {
  for (const pid of warmProcesses(root)) {
    try {
      process.kill(pid, "SIGKILL")
    } catch {
      // already gone
    }
  }
  await waitFor(() => warmProcesses(root).length === 0, 10_000)
}

/** Starts the sandbox's server with one warm call (decided in-process) and waits for its socket. */
export async function startWarm(sb: Sandbox, payload: string, env: Record<string, string> = {}): Promise<string> {
  const path = await socketOf(sb, env)
  await ccode(sb, ["hook", "claude", "--warm"], { stdin: payload, env })
  await waitFor(() => existsSync(path), 15_000)
  return path
}

/** Every decision row's columns but its id, time and hashes, oldest first. */
export function decisionRows(db: string): Record<string, unknown>[] {
  if (!existsSync(db)) return []
  const d = new Database(db, { readonly: true })
  try {
    // a warm worker answers before it has closed the database (and checkpointed its WAL)
    d.run("PRAGMA busy_timeout = 10000")
    return d.query("SELECT run_id, call_id, type, actor, tool, action, result, risk, auto_approved, reason, data FROM audit WHERE type = 'decision' ORDER BY id").all() as Record<string, unknown>[]
  } finally {
    d.close()
  }
}
