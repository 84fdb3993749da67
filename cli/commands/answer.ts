import { settle } from "../../core/runner/settle.ts"
import { globalArgs, jsonArg } from "../args.ts"
import { command } from "../command.ts"
import { openRunDb } from "../paths.ts"
import { printSettled } from "../ui/settled.ts"

export default command({
  meta: { name: "answer", description: "Answer a question a paused run asked (then `ccode resume`)" },
  examples: ['ccode answer r1a2b3 q4c5d6 "use the staging database"', "ccode answer r1a2b3 q7e8f9 done   # an in-flight step did finish"],
  args: {
    run: { type: "positional", description: "run id (or unique prefix)", required: true },
    request: { type: "positional", description: "request id", required: true },
    text: { type: "positional", description: "the answer (several words are joined)", required: true },
    ...jsonArg,
    ...globalArgs,
  },
  async run({ args }) {
    const words = args._.slice(2)
    const { store } = await openRunDb(args.db)
    try {
      const settled = await settle(store, args.run, args.request, { action: "answer", text: words.join(" ") })
      await printSettled(store, settled, Boolean(args.json))
      return 0
    } finally {
      await store.close()
    }
  },
})
