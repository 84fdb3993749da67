// ccode runs logs RUN [STEP] [--follow]: every call's output in order, under a header naming the step,
// tool and result. Results go to stdout (pipe them); --follow polls until the run stops working.
import { storedOutput } from "../../core/runner/inspect.ts"
import { runIsLive } from "../../core/runner/liveness.ts"
import type { CallRow } from "../../core/store/calls.ts"
import { globalArgs, jsonArg } from "../args.ts"
import { command } from "../command.ts"
import { UsageError } from "../errors.ts"
import { out } from "../out.ts"
import { openRunDb } from "../paths.ts"

const FOLLOW_EVERY_MS = 250

export const logs = command({
  meta: { name: "logs", description: "Print the output of every call of a run (or of one step), in order" },
  examples: [
    "ccode runs logs r1a2b3",
    "ccode runs logs r1a2b3 test            # only step `test` (every attempt)",
    "ccode runs logs r1a2b3 --follow        # keep printing until the run stops",
    "ccode runs logs r1a2b3 --json | jq -r 'select(.status != \"ok\") | .output'",
  ],
  args: {
    id: { type: "positional", description: "run id (or unique prefix)", required: true },
    step: { type: "positional", description: "only this step (plan item id) or call id", required: false },
    follow: { type: "boolean", description: "wait for further calls until the run is no longer running" },
    ...jsonArg,
    ...globalArgs,
  },
  async run({ args }) {
    const { store } = await openRunDb(args.db, { readonly: true })
    try {
      const run = await store.findRun(args.id)
      const wanted = (c: CallRow) => !args.step || c.itemId === args.step || c.id === args.step
      const printed = new Set<string>()
      const print = async () => {
        for (const c of await store.callsOf(run.id)) {
          if (printed.has(c.id) || !wanted(c) || c.status === "running" || c.status === "pending") continue
          printed.add(c.id)
          out(args.json ? JSON.stringify(logEntry(c)) : block(c))
        }
      }
      await print()
      if (args.step && !printed.size && !args.follow && !(await store.loadPlan(run.id)).some((item) => item.id === args.step)) {
        throw new UsageError(`run ${run.id} has no step or call "${args.step}"; see \`ccode runs show ${run.id}\``)
      }
      while (args.follow && runIsLive(await store.findRun(run.id))) {
        await Bun.sleep(FOLLOW_EVERY_MS)
        await print()
      }
      if (args.follow) await print() // what the last moments finished
      return 0
    } finally {
      await store.close()
    }
  },
})

export function logEntry(c: CallRow) {
  return { call: c.id, seq: c.seq, step: c.itemId, attempt: c.attempt, tool: c.tool, status: c.status, exit_code: c.exitCode, ...storedOutput(c) }
}

function block(c: CallRow): string {
  const e = logEntry(c)
  const result = `${c.status}${c.exitCode !== null ? ` (exit ${c.exitCode})` : ""}${c.status !== "ok" && c.errorCode && c.errorCode !== "EXIT_CODE" ? ` ${c.errorCode}` : ""}`
  const head = `── ${c.itemId ? `step ${c.itemId}` : `call ${c.seq}`}${c.attempt > 1 ? ` (attempt ${c.attempt})` : ""} · ${c.tool} · ${result} · ${c.durationMs ?? 0}ms${e.truncated ? ` · ${e.bytes} bytes, middle omitted` : ""} ──`
  const body = e.output || (c.errorMessage && c.status !== "ok" ? c.errorMessage : "")
  return `${head}\n${body}${body && !body.endsWith("\n") ? "\n" : ""}`
}
