// Runs are unsandboxed: the steps append to a file outside the workspace, which the OS sandbox forbids.
// One fault-injection trial: a 100-step plan whose steps append unique lines, a signal at a chosen
// moment, then resumes until the run completes, with a "person" settling what was in flight by
// looking at the file (line there: "done"; not there: run it again). Nothing else decides.
import { Database } from "bun:sqlite"
import { existsSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { ccode, events, sandbox, spawnCcode, type Sandbox } from "../e2e/harness.ts"

export const STEPS = 100

export interface Fault {
  signal: "SIGKILL" | "SIGINT" | "SIGTERM"
  /** signal when this event shows on the --json stream (then after `extraMs`), or after `extraMs` from the start */
  after?: (event: Record<string, unknown>) => boolean
  extraMs: number
  /** signal the first resume too */
  again?: boolean
}

export interface TrialResult {
  lines: string[]
  exits: number[]
  choices: { rerun: number; done: number }
  auditCode: number
  status: string
  /** summary.md of the finished run says it completed */
  summary: boolean
}

/** The plan: most steps append outside the workspace (no snapshot), every 20th inside it too (a snapshot), every 25th fails once first (a retry). */
export function faultPlan(outFile: string): string {
  const steps: string[] = []
  for (let i = 1; i <= STEPS; i++) {
    const line = `echo s${i} >> ${outFile}`
    let run = i % 20 === 0 ? `${line}; echo s${i} > ws-${i}.txt` : line
    if (i % 25 === 0) run = `if [ -f flaky-${i} ]; then ${run}; else touch flaky-${i}; exit 1; fi`
    steps.push(`  - id: s${i}\n    run: '${run}'${i % 25 === 0 ? "\n    retries: 1" : ""}`)
  }
  return `version: 1\nname: faults\npolicy:\n  limits: { retry_backoff: 20ms }\nsteps:\n${steps.join("\n")}\n`
}

export async function runTrial(fault: Fault): Promise<TrialResult> {
  const sb = sandbox()
  try {
    const out = join(sb.root, "out.txt")
    sb.file("task.yaml", faultPlan(out))
    const exits: number[] = []
    const first = await signalled(sb, ["run", "task.yaml", "--sandbox", "off", "--yes", "--json"], fault)
    exits.push(first.code)
    let runId = first.runId ?? latestRun(sb)
    if (!runId) {
      // stopped before the run was recorded: nothing ran (checked below by the lines), so run it again
      if (readLines(out).length) throw new Error("steps ran but no run was recorded")
      const again = await ccode(sb, ["run", "task.yaml", "--sandbox", "off", "--yes", "--json"])
      exits.push(again.code)
      runId = latestRun(sb)!
    }
    const choices = { rerun: 0, done: 0 }
    let status = runStatus(sb, runId)
    for (let round = 0; round < 12 && status !== "completed"; round++) {
      const resumed = round === 0 && fault.again ? await signalled(sb, ["resume", runId, "--json"], { ...fault, after: undefined, extraMs: fault.extraMs % 400 }) : await ccode(sb, ["resume", runId, "--json"])
      exits.push(resumed.code)
      if (resumed.code === 3) await settleAsAPerson(sb, runId, out, choices)
      status = runStatus(sb, runId)
      // 3: a person settles what was in flight; 4: a guard (the workspace changed under a killed run) — resume again;
      // 130 or death by the signal (137, 143 before the handler was set up): resume again; 0: done
      if (resumed.code === 1 || resumed.code === 2 || resumed.code === 5) break
    }
    const audit = await ccode(sb, ["audit", "verify"], { timeoutMs: 30_000 })
    const summaryFile = join(sb.env.CCODE_HOME!, "runs", runId, "summary.md")
    const summary = existsSync(summaryFile) && readFileSync(summaryFile, "utf8").includes("outcome: **completed**")
    return { lines: readLines(out), exits, choices, auditCode: audit.code, status, summary }
  } finally {
    rmSync(sb.root, { recursive: true, force: true })
  }
}

async function signalled(sb: Sandbox, args: string[], fault: Fault): Promise<{ code: number; runId?: string }> {
  const proc = await spawnCcode(sb, args)
  let runId: string | undefined
  let fired = false
  const fire = () => {
    if (fired) return
    fired = true
    setTimeout(() => proc.kill(fault.signal), fault.extraMs)
  }
  if (!fault.after) fire()
  const decoder = new TextDecoder()
  let buffered = ""
  for await (const chunk of proc.stdout) {
    buffered += decoder.decode(chunk, { stream: true })
    let nl: number
    while ((nl = buffered.indexOf("\n")) !== -1) {
      const line = buffered.slice(0, nl)
      buffered = buffered.slice(nl + 1)
      const [event] = events(line)
      if (!event) continue
      runId ??= String(event.run)
      if (fault.after?.(event)) fire()
    }
  }
  return { code: await proc.exited, runId }
}

async function settleAsAPerson(sb: Sandbox, runId: string, out: string, choices: TrialResult["choices"]): Promise<void> {
  const db = new Database(sb.db, { readonly: true })
  const pending = db.query("SELECT id, kind, item_id AS step FROM requests WHERE run_id = ? AND status = 'pending'").all(runId) as { id: string; kind: string; step: string }[]
  db.close()
  const present = new Set(readLines(out))
  for (const request of pending) {
    if (request.kind !== "in_flight") throw new Error(`unexpected ${request.kind} request ${request.id}`)
    if (present.has(request.step)) {
      choices.done++
      await ccode(sb, ["answer", runId, request.id, "done"])
    } else {
      choices.rerun++
      await ccode(sb, ["approve", runId, request.id])
    }
  }
}

function runStatus(sb: Sandbox, runId: string): string {
  const db = new Database(sb.db, { readonly: true })
  const row = db.query("SELECT status FROM runs WHERE id = ?").get(runId) as { status: string } | null
  db.close()
  return row?.status ?? "missing"
}

function latestRun(sb: Sandbox): string | undefined {
  if (!existsSync(sb.db)) return undefined
  const db = new Database(sb.db, { readonly: true })
  try {
    // killed while the database was first created: no tables yet (its migration is one transaction)
    const exists = db.query("SELECT 1 FROM sqlite_master WHERE name = 'runs'").get()
    const row = exists ? (db.query("SELECT id FROM runs ORDER BY created_at DESC LIMIT 1").get() as { id: string } | null) : null
    return row?.id
  } finally {
    db.close()
  }
}

function readLines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : []
}
