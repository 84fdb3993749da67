import { settle } from "../../core/runner/settle.ts"
import { globalArgs, jsonArg } from "../args.ts"
import { command } from "../command.ts"
import { UsageError } from "../errors.ts"
import { openRunDb } from "../paths.ts"
import { printSettled } from "../ui/settled.ts"

export default command({
  meta: { name: "deny", description: "Deny pending requests of a paused run (then `ccode resume`)" },
  examples: ['ccode deny r1a2b3 q4c5d6 --reason "no pushes from CI"', "ccode deny r1a2b3 --all"],
  args: {
    run: { type: "positional", description: "run id (or unique prefix)", required: true },
    request: { type: "positional", description: "request id", required: false },
    all: { type: "boolean", description: "every pending request of the run" },
    reason: { type: "string", description: "why (recorded in the audit and shown to the agent)" },
    ...jsonArg,
    ...globalArgs,
  },
  async run({ args }) {
    if (!args.request && !args.all) throw new UsageError("give a request id or --all")
    const { store } = await openRunDb(args.db)
    try {
      const settled = await settle(store, args.run, args.all ? "all" : args.request!, { action: "deny", reason: args.reason })
      await printSettled(store, settled, Boolean(args.json))
      return 0
    } finally {
      await store.close()
    }
  },
})
