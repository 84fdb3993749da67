// ccode cancel RUN: end a paused or stopped run for good (status cancelled, history kept).
import { cancelRun } from "../../core/runner/cancel.ts"
import { globalArgs, jsonArg } from "../args.ts"
import { command } from "../command.ts"
import { openRunDb, ccodeHome } from "../paths.ts"
import { out } from "../out.ts"

export default command({
  meta: { name: "cancel", description: "End a paused, stopped, interrupted or crashed run for good (status cancelled; its history is kept)" },
  examples: [
    "ccode cancel r1a2b3          # pending requests close as cancelled; `ccode resume` refuses it from now on",
    "ccode cancel r1a2b3 --json",
  ],
  args: {
    run: { type: "positional", description: "run id (or unique prefix)", required: true },
    ...jsonArg,
    ...globalArgs,
  },
  async run({ args }) {
    const { store } = await openRunDb(args.db)
    try {
      const done = await cancelRun(store, args.run, ccodeHome())
      if (args.json) out(JSON.stringify(done))
      else {
        const closed = done.requests.length ? `; closed ${done.requests.length} pending request(s): ${done.requests.join(", ")}` : ""
        const abandoned = done.abandoned_calls.length ? `; ${done.abandoned_calls.length} call(s) in flight at a crash marked abandoned` : ""
        out(`cancelled run ${done.run} (${done.task}, was ${done.from})${closed}${abandoned}`)
      }
      return 0
    } finally {
      await store.close()
    }
  },
})
