// ccode audit [verify|report]: query and export the audit log, verify its hash chain, report on a run.
import { homedir } from "node:os"
import {
  auditView, buildReport, EXPORT_FORMATS, parseFilter, redactView, renderExport, renderReport,
  type AuditView, type ExportFormat, type RunInfo,
} from "../../core/audit/index.ts"
import { createRedactor } from "../../core/redact/index.ts"
import { filesChangedByRun } from "../../core/snapshot/changes.ts"
import { RunNotFound } from "../../core/store/runs.ts"
import { globalArgs, jsonArg } from "../args.ts"
import { command } from "../command.ts"
import { Exit, UsageError } from "../errors.ts"
import { ccodeHome, openRunDb } from "../paths.ts"
import { renderTable } from "../ui/table.ts"
import { out } from "../out.ts"


const filterArgs = {
  run: { type: "string", description: "only this run (id or unique prefix; comma-separated for several)", valueHint: "ID" },
  type: { type: "string", description: "row types: permission, tool_call, decision, state_change, checkpoint, rollback, error, session_start, session_end, policy, trust", valueHint: "T" },
  tool: { type: "string", description: "only calls of these tools", valueHint: "NAME" },
  decision: { type: "string", description: "allow, ask, deny, or a result: approved, denied, asked, success, failed, error", valueHint: "D" },
  risk: { type: "string", description: "risk level (high), or at least a level (high+)", valueHint: "LEVEL" },
  since: { type: "string", description: "from: a duration back from now (1h, 7d) or a date/time (2026-01-31, ISO-8601)", valueHint: "WHEN" },
  until: { type: "string", description: "up to: same forms as --since", valueHint: "WHEN" },
  limit: { type: "string", description: "only the newest N rows", valueHint: "N" },
  "policy-fingerprint": { type: "string", description: "only decisions of the policy with this fingerprint (or prefix; see `ccode policy show`)", valueHint: "HEX" },
} as const

const query = command({
  meta: { name: "query", description: "Query and export audit rows (the default)" },
  examples: [
    "ccode audit --run r1a2b3",
    "ccode audit --since 1h --decision deny",
    "ccode audit --type permission --format csv > approvals.csv",
    "ccode audit --risk high+ --format md",
    "ccode audit --run r1a2b3 --format jsonl > audit.jsonl",
    "ccode audit --policy-fingerprint 3f9a2c1e --decision allow   # which calls did this policy allow?",
  ],
  args: {
    ...filterArgs,
    format: { type: "string", description: `output format: ${EXPORT_FORMATS.join(", ")} (default table; json with --json)`, valueHint: "FORMAT" },
    ...jsonArg,
    ...globalArgs,
  },
  async run({ args }) {
    const format = (args.format ?? (args.json ? "json" : "table")) as ExportFormat
    if (!EXPORT_FORMATS.includes(format)) throw new UsageError(`--format takes one of ${EXPORT_FORMATS.join(", ")}; got "${args.format}"`)
    const filter = parseFilter(args, Date.now())
    const { store } = await openRunDb(args.db, { readonly: true })
    try {
      if (filter.runs) filter.runs = await Promise.all(filter.runs.map((id) => store.resolveAuditRun(id)))
      const redactor = exportRedactor()
      const views = (await store.queryAudit(filter)).map((row) => redactView(auditView(row), redactor))
      if (format !== "table") return void out(renderExport(views, format))
      if (!views.length) return void process.stderr.write("no audit rows match\n")
      out(table(views))
    } finally {
      await store.close()
    }
  },
})

const verify = command({
  meta: { name: "verify", description: "Verify the audit hash chain; exit 1 naming the first row changed, deleted or inserted" },
  examples: ["ccode audit verify", "ccode audit verify --json"],
  args: { ...jsonArg, ...globalArgs },
  async run({ args }) {
    const { store } = await openRunDb(args.db, { readonly: true })
    try {
      const result = await store.verifyAudit()
      if (args.json) out(JSON.stringify(result))
      else if (result.ok) {
        out(`audit chain intact: ${result.rows} row(s)${result.last ? `; last row ${result.last.id}, hash ${result.last.hash}` : ""}`)
      } else out(`audit chain broken: ${result.problem!.message}`)
      // a subcommand's return value does not reach the exit code through citty
      if (!result.ok) throw new Exit(1)
      return 0
    } finally {
      await store.close()
    }
  },
})

const report = command({
  meta: { name: "report", description: "Per-run report: counts, approvals and denials with who and why, guards, files changed, duration" },
  examples: ["ccode audit report r1a2b3", "ccode audit report r1a2b3 --format json", "ccode audit report r1a2b3 > report.md"],
  args: {
    id: { type: "positional", description: "run id (or unique prefix)", required: true },
    format: { type: "string", description: "md (default) or json", valueHint: "FORMAT" },
    ...jsonArg,
    ...globalArgs,
  },
  async run({ args }) {
    const format = args.format ?? (args.json ? "json" : "md")
    if (format !== "md" && format !== "json") throw new UsageError(`--format takes md or json; got "${format}"`)
    const { store } = await openRunDb(args.db, { readonly: true })
    try {
      const runId = await store.resolveAuditRun(args.id)
      const rows = await store.queryAudit({ runs: [runId] })
      // the run itself may be pruned: its audit rows stay
      const run = await store.findRun(runId).catch((error) => {
        if (error instanceof RunNotFound) return undefined
        throw error
      })
      const info: RunInfo = run ? { id: run.id, task: run.task, status: run.status, exit_code: run.exitCode, workdir: run.workdir } : { id: runId }
      // the files its snapshots changed, where this machine holds them; else the paths it asked to write
      const files = (run && (await filesChangedByRun(await store.snapshotsOf(runId), run.workdir, ccodeHome()).catch(() => undefined))) ?? writtenPaths(rows.map(auditView))
      const redactor = exportRedactor()
      const built = redactor.value(buildReport(info, rows, files))
      out(format === "json" ? JSON.stringify(built, null, 2) : renderReport(built))
    } finally {
      await store.close()
    }
  },
})

export default command({
  meta: { name: "audit", description: "Query, export and verify the audit log; per-run reports" },
  examples: [
    "ccode audit --run r1a2b3 --format jsonl",
    "ccode audit --since 1h --decision deny",
    "ccode audit verify",
    "ccode audit report r1a2b3",
  ],
  subCommands: { query, verify, report },
  default: "query",
})

/** A second pass over everything exported: rows a writer forgot to redact do not leave as they are. */
function exportRedactor() {
  return createRedactor({ enabled: process.env.CCODE_REDACT !== "0", env: process.env, home: homedir() })
}

function table(views: AuditView[]): string {
  const short = (text: string | null, n: number) => (text && text.length > n ? `${text.slice(0, n - 3)}...` : (text ?? ""))
  return renderTable(
    ["id", "time", "run", "type", "actor", "tool", "action", "result", "risk", "reason"],
    views.map((v) => [
      String(v.id), v.ts.replace("T", " ").slice(0, 19), v.run ?? "", v.type, v.actor, v.tool ?? "", short(v.action, 24),
      v.result ?? "", v.risk ?? "", short(v.reason?.replace(/\s+/g, " ") ?? null, 80),
    ]),
  )
}

/** Without snapshots: the paths file tools were asked to write. */
function writtenPaths(views: AuditView[]): string[] {
  const paths = new Set<string>()
  for (const v of views) {
    if (v.type !== "decision" || v.result !== "approved" || (v.tool !== "write_file" && v.tool !== "edit_file")) continue
    const path = (v.data as { args?: { path?: unknown } } | null)?.args?.path
    if (typeof path === "string") paths.add(path)
  }
  return [...paths].sort()
}
