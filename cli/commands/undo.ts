// ccode undo RUN [--to-step N] [--dry-run]: put the workspace back as it was before the run (or step N).
import { homedir } from "node:os"
import { createRedactor } from "../../core/redact/index.ts"
import { undoRun, type UndoResult } from "../../core/snapshot/undo.ts"
import { findRun } from "../../core/store/runs.ts"
import { globalArgs, jsonArg, positiveInt } from "../args.ts"
import { command } from "../command.ts"
import { UsageError } from "../errors.ts"
import { ccodeHome, dbPath, openDb } from "../paths.ts"
import { out } from "../out.ts"

export default command({
  meta: { name: "undo", description: "Restore the workspace to how it was before a run (or before step N)" },
  examples: ["ccode undo r1a2b3 --dry-run", "ccode undo r1a2b3", "ccode undo r1a2b3 --to-step 4   # back to just before call 4"],
  args: {
    id: { type: "positional", description: "run id (or unique prefix)", required: true },
    "to-step": { type: "string", description: "restore to just before this call (its # in `ccode runs show`)", valueHint: "N" },
    "dry-run": { type: "boolean", description: "only list what would change" },
    ...jsonArg,
    ...globalArgs,
  },
  async run({ args }) {
    const toStep = positiveInt(args["to-step"], "--to-step")
    const store = openDb(args.db)
    try {
      const run = findRun(store, args.id)
      if (run.status === "running" && run.pid && run.pid !== process.pid && alive(run.pid)) {
        throw new UsageError(`run ${run.id} is still running (pid ${run.pid}); undo it once it has stopped`)
      }
      const db = dbPath(args.db)
      const result = await undoRun(store, run, {
        home: ccodeHome(), toStep, dryRun: Boolean(args["dry-run"]), exclude: [db],
        redactor: createRedactor({ enabled: process.env.CCODE_REDACT !== "0", env: process.env, home: homedir() }),
      })
      if (args.json) out(JSON.stringify(snakeCase(result)))
      else out(describe(result))
      return 0
    } finally {
      store.close()
    }
  },
})

function describe(r: UndoResult): string {
  const lines = [`${r.dryRun ? "dry run: " : ""}${r.workspace} ${r.dryRun ? "would be restored" : "restored"} to ${r.target} of run ${r.runId}`]
  const list = (done: string, planned: string, paths: string[]) => {
    if (paths.length) lines.push(`${r.dryRun ? planned : done} (${paths.length}):`, ...paths.map((p) => `  ${p}`))
  }
  list("brought back", "would bring back", r.restored)
  list("removed", "would remove", r.removed)
  list("put back", "would put back", r.modified)
  if (!r.restored.length && !r.removed.length && !r.modified.length) lines.push("nothing differs: the workspace already is as it was")
  return `${lines.join("\n")}\n`
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** JSON keys as every other --json output spells them. */
function snakeCase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCase)
  if (!value || typeof value !== "object") return value
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snakeCase(v)]))
}
