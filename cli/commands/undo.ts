// ccode undo RUN [--to-step N] [--dry-run]: put the workspace back as it was before the run (or step N).
// On either store: the run's snapshot rows are read from it, the snapshots from this machine's shadow
// repository (they never leave the machine that took them).
import { homedir, hostname } from "node:os"
import { createRedactor } from "../../core/redact/index.ts"
import { undoRun, type UndoResult } from "../../core/snapshot/undo.ts"
import { globalArgs, jsonArg, positiveInt } from "../args.ts"
import { command } from "../command.ts"
import { UsageError } from "../errors.ts"
import { ccodeHome, openRunDb } from "../paths.ts"
import { out } from "../out.ts"

export default command({
  meta: { name: "undo", description: "Restore the workspace to how it was before a run (or before step N)" },
  examples: [
    "ccode undo r1a2b3 --dry-run",
    "ccode undo r1a2b3",
    "ccode undo r1a2b3 --to-step 4   # back to just before call 4",
    "ccode undo r1a2b3 --force       # also files changed again after the run",
    "ccode undo --redo r1a2b3        # bring the run's changes back",
  ],
  args: {
    id: { type: "positional", description: "run id (or unique prefix)", required: true },
    "to-step": { type: "string", description: "restore to just before this call (its # in `ccode runs show`)", valueHint: "N" },
    "dry-run": { type: "boolean", description: "only list what would change" },
    force: { type: "boolean", description: "also put back files that were changed again after the run" },
    redo: { type: "boolean", description: "bring back what the last undo of this run took away" },
    ...jsonArg,
    ...globalArgs,
  },
  async run({ args }) {
    const toStep = positiveInt(args["to-step"], "--to-step")
    const { store, local } = await openRunDb(args.db)
    try {
      const run = await store.findRun(args.id)
      if (run.status === "running" && run.host && run.host !== hostname()) {
        throw new UsageError(`run ${run.id} is marked running on host ${run.host} (it may be at work there); undo it once it has stopped`)
      }
      if (run.status === "running" && run.pid && run.pid !== process.pid && alive(run.pid)) {
        throw new UsageError(`run ${run.id} is still running (pid ${run.pid}); undo it once it has stopped`)
      }
      const result = await undoRun(store, run, {
        home: ccodeHome(), toStep, dryRun: Boolean(args["dry-run"]), force: Boolean(args.force), redo: Boolean(args.redo), exclude: local ? [local.path] : [ccodeHome()],
        redactor: createRedactor({ enabled: process.env.CCODE_REDACT !== "0", env: process.env, home: homedir() }),
      })
      if (args.json) out(JSON.stringify(snakeCase(result)))
      else out(describe(result))
      return 0
    } finally {
      await store.close()
    }
  },
})

function describe(r: UndoResult): string {
  const what = r.commits === undefined || r.target.startsWith("as it was before the undo") ? `the run's changes in ${r.workspace}` : `the files run ${r.runId} changed in ${r.workspace}`
  const lines = [`${r.dryRun ? "dry run: " : ""}${what} ${r.dryRun ? "would be put back" : "put back"} ${r.target.startsWith("as it was") ? r.target : `to ${r.target}`}`]
  const list = (done: string, planned: string, paths: string[]) => {
    if (paths.length) lines.push(`${r.dryRun ? planned : done} (${paths.length}):`, ...paths.map((p) => `  ${p}`))
  }
  list("brought back", "would bring back", r.restored)
  list("removed", "would remove", r.removed)
  list("put back", "would put back", r.modified)
  if (!r.restored.length && !r.removed.length && !r.modified.length) lines.push("nothing to put back")
  if (r.changedSince.length) {
    const why = r.forced ? "changed again since, put back anyway (--force)" : "left alone: changed again since (--force puts them back too)"
    lines.push(`${why} (${r.changedSince.length}):`, ...r.changedSince.map((p) => `  ${p}`))
  }
  if (r.commits.length) {
    lines.push(`commits made while the run worked (undo does not change history) (${r.commits.length}):`, ...r.commits.map((c) => `  ${c.hash.slice(0, 12)} ${c.subject}`))
    lines.push(`to revert them: ${r.revert}`)
  }
  if (!r.dryRun && r.ref && !r.target.startsWith("as it was")) lines.push(`to bring the run's changes back: ccode undo --redo ${r.runId}`)
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
