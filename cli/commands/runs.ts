// ccode runs [ls|show|events|rm|prune]: list and inspect runs.
import { runDetail, runView } from "../../core/runner/inspect.ts"
import { mayBeLive } from "../../core/runner/liveness.ts"
import { replayScriptText } from "../../core/agent/export.ts"
import { agentOf } from "../../core/agent/history.ts"
import type { RunStatus } from "../../core/store/runs.ts"
import { ensureSummary } from "../../core/runner/summary.ts"
import { chooseRuns, removeRuns } from "../../core/runner/prune.ts"
import { parseDuration } from "../../core/base/duration.ts"
import { globalArgs, jsonArg, positiveInt } from "../args.ts"
import { command } from "../command.ts"
import { UsageError } from "../errors.ts"
import { ccodeHome, openRunDb } from "../paths.ts"
import { renderTable } from "../ui/table.ts"
import { out } from "../out.ts"
import { logs } from "./runs-logs.ts"
import { lastLines } from "../../core/runner/output.ts"


const ls = command({
  meta: { name: "ls", description: "List runs, newest first" },
  examples: ["ccode runs ls", "ccode runs ls --json --limit 5", "ccode runs ls --status paused"],
  args: {
    limit: { type: "string", description: "how many (default 50)", valueHint: "N" },
    status: { type: "string", description: "only runs with this status" },
    ...jsonArg,
    ...globalArgs,
  },
  async run({ args }) {
    const { store } = await openRunDb(args.db, { readonly: true })
    try {
      // `crashed` is a running row whose process is gone: stored as running
      // (an unknown status is not an error: it matches no run)
      const stored = (args.status === "crashed" ? "running" : args.status) as RunStatus | undefined
      const rows = (await store.listRuns({ limit: positiveInt(args.limit, "--limit") ?? 50, status: stored })).map(runView).filter((r) => !args.status || r.status === args.status)
      if (args.json) out(JSON.stringify(rows))
      else if (!rows.length) process.stderr.write("no runs yet; try `ccode run examples/quickstart/task.yaml`\n")
      else out(renderTable(["id", "task", "status", "exit", "created", "workdir"], rows.map((r) => [r.id, r.task, r.status, String(r.exit_code ?? "-"), r.created_at.replace("T", " ").slice(0, 19), r.workdir])))
      return 0
    } finally {
      await store.close()
    }
  },
})

const show = command({
  meta: { name: "show", description: "Show a run: plan, calls, requests" },
  examples: ["ccode runs show r1a2b3", "ccode runs show r1a2b3 --json"],
  args: { id: { type: "positional", description: "run id (or unique prefix)", required: true }, ...jsonArg, ...globalArgs },
  async run({ args }) {
    const { store } = await openRunDb(args.db, { readonly: true })
    try {
      const run = await store.findRun(args.id)
      await ensureSummary(store, run, ccodeHome())
      const detail = await runDetail(store, run)
      if (args.json) return void out(JSON.stringify(detail))
      const lines = [
        `run ${detail.id}  ${detail.task}  ${detail.status} (exit ${detail.exit_code ?? "-"})${detail.message ? ` — ${detail.message}` : ""}`,
        `task ${detail.task_file}\nworkdir ${detail.workdir}\ncreated ${detail.created_at}`,
        "",
        renderTable(["step", "state", "attempts", "title"], detail.plan.map((p) => [p.id, p.state, String(p.attempts), p.title])),
        "",
        renderTable(["#", "step", "tool", "decision", "risk", "status", "ms"], detail.calls.map((c) => [String(c.seq), c.step ?? "", c.tool, `${c.decision ?? "-"}/${c.by ?? "-"}`, c.risk ?? "-", c.error ? `${c.status} ${c.error.code}` : c.status, String(c.duration_ms ?? "")])),
      ]
      if (detail.requests.length) lines.push("", renderTable(["request", "kind", "status", "title"], detail.requests.map((r) => [r.id, r.kind, r.status, r.title])))
      // what a failure said, without a second command (all of it: ccode runs logs)
      for (const c of detail.calls.filter((c) => c.status === "error" && c.output.trim())) {
        lines.push("", `── ${c.step ?? `call ${c.seq}`} failed; last lines (ccode runs logs ${detail.id} ${c.step ?? c.id}):`, ...lastLines(c.output, 5).map((l) => `  ${l}`))
      }
      out(lines.join("\n"))
    } finally {
      await store.close()
    }
  },
})

const events = command({
  meta: { name: "events", description: "The run's event trace (redacted)" },
  examples: ["ccode runs events r1a2b3 --format jsonl > trace.jsonl"],
  args: {
    id: { type: "positional", description: "run id (or unique prefix)", required: true },
    format: { type: "string", description: "jsonl (default with --json) or table" },
    ...jsonArg,
    ...globalArgs,
  },
  async run({ args }) {
    const format = args.format ?? (args.json ? "jsonl" : "table")
    if (!["jsonl", "table"].includes(format)) throw new UsageError(`--format takes jsonl or table, got "${format}"`)
    const { store } = await openRunDb(args.db, { readonly: true })
    try {
      const list = await store.runEvents((await store.findRun(args.id)).id)
      if (format === "jsonl") out(list.map((e) => JSON.stringify(e)).join("\n"))
      else out(renderTable(["ts", "type", "detail"], list.map((e) => [String(e.ts), String(e.type), detailOf(e)])))
    } finally {
      await store.close()
    }
  },
})

const rm = command({
  meta: { name: "rm", description: "Delete a run, its summary and its snapshots (audit rows are kept)" },
  examples: ["ccode runs rm r1a2b3"],
  args: { id: { type: "positional", description: "run id (or unique prefix)", required: true }, ...jsonArg, ...globalArgs },
  async run({ args }) {
    const { store, local } = await openRunDb(args.db)
    try {
      const run = await store.findRun(args.id)
      if (mayBeLive(run)) throw new UsageError(`run ${run.id} is still running (pid ${run.pid}${run.host ? ` on ${run.host}` : ""})`)
      await removeRuns(store, local, ccodeHome(), [run.id], Number.POSITIVE_INFINITY)
      if (args.json) out(JSON.stringify({ removed: [run.id] }))
      else out(`removed ${run.id}`)
    } finally {
      store.close()
    }
  },
})

const prune = command({
  meta: { name: "prune", description: "Delete finished runs not touched for a while (default 7d), their summaries and snapshots; audit rows are kept" },
  examples: ["ccode runs prune", "ccode runs prune --older-than 30d --dry-run", "ccode runs prune --older-than 12h --all --json"],
  args: {
    "older-than": { type: "string", description: "age since the run last changed, with a unit: 7d, 12h, 30m", valueHint: "DURATION" },
    all: { type: "boolean", description: "also runs that could still be resumed (paused, stopped, interrupted, crashed)" },
    "dry-run": { type: "boolean", description: "list what would be removed, remove nothing" },
    ...jsonArg,
    ...globalArgs,
  },
  async run({ args }) {
    const age = ageFlag(args["older-than"] ?? "7d")
    const { store, local } = await openRunDb(args.db)
    try {
      const chosen = chooseRuns(await store.pruneCandidates(), { olderThanMs: age, all: Boolean(args.all), now: Date.now() })
      if (args["dry-run"]) {
        if (args.json) out(JSON.stringify({ would_remove: chosen.map((r) => ({ id: r.id, task: r.task, status: r.status, last_update: new Date(r.touchedAt).toISOString() })) }))
        else out(chosen.length ? `would remove ${chosen.length} run(s):\n${chosen.map((r) => `  ${r.id}  ${r.status}  ${r.task}  last update ${new Date(r.touchedAt).toISOString()}`).join("\n")}` : "nothing to remove")
        return
      }
      const result = await removeRuns(store, local, ccodeHome(), chosen.map((r) => r.id), age)
      if (args.json) out(JSON.stringify({ removed: result.removed, snapshot_refs: result.snapshots.refs }))
      else out(`removed ${result.removed.length} run(s)${result.snapshots.refs ? ` and ${result.snapshots.refs} snapshot(s)` : ""}`)
    } finally {
      store.close()
    }
  },
})

/** --older-than needs its unit: a bare "7" would otherwise be 7 ms and remove everything. */
function ageFlag(text: string): number {
  const age = /^\s*\d+(\.\d+)?\s*(ms|s|m|h|d)\s*$/.test(text) ? parseDuration(text) : undefined
  if (age === undefined) throw new UsageError(`--older-than takes a duration with a unit, like 7d, 12h or 30m; got "${text}"`)
  return age
}

const exportRun = command({
  meta: { name: "export", description: "Export a run: --replay writes an agent run's model turns as a replay script (YAML)" },
  examples: ["ccode runs export r1a2b3 --replay > turns.yaml", "ccode runs export r1a2b3 > run.json   # plan, calls, requests and events"],
  args: {
    id: { type: "positional", description: "run id (or unique prefix)", required: true },
    replay: { type: "boolean", description: "an agent run's recorded model turns, for `agent: {provider: replay, script: FILE}`" },
    ...jsonArg,
    ...globalArgs,
  },
  async run({ args }) {
    const { store } = await openRunDb(args.db, { readonly: true })
    try {
      const run = await store.findRun(args.id)
      if (!args.replay) return void out(JSON.stringify({ ...(await runDetail(store, run)), events: await store.runEvents(run.id) }))
      const agent = run.driver === "agent" ? await agentOf(store, run.id) : undefined
      if (!agent) throw new UsageError(`run ${run.id} is not an agent run (or has no conversation yet); --replay exports the model turns of agent runs`)
      out(replayScriptText(agent, { runId: run.id, task: run.task }))
    } finally {
      await store.close()
    }
  },
})

export default command({
  meta: { name: "runs", description: "List and inspect runs" },
  examples: ["ccode runs", "ccode runs show r1a2b3", "ccode runs events r1a2b3 --format jsonl", "ccode runs prune --older-than 7d", "ccode runs export r1a2b3 --replay > turns.yaml"],
  subCommands: { ls, show, events, logs, export: exportRun, rm, prune },
  default: "ls",
})

function detailOf(e: Record<string, unknown>): string {
  const { type: _t, ts: _ts, run: _r, ...rest } = e
  const text = JSON.stringify(rest)
  return text.length > 120 ? `${text.slice(0, 117)}...` : text
}
