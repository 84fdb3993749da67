import { resumeRun } from "../../core/runner/lifecycle.ts"
import { lastResumable } from "../../core/store/runs.ts"
import { globalArgs, jsonArg } from "../args.ts"
import { command } from "../command.ts"
import { UsageError } from "../errors.ts"
import { nextSteps, openSession } from "../session.ts"

export default command({
  meta: { name: "resume", description: "Continue a paused, stopped, interrupted or crashed run from its last checkpoint" },
  examples: ["ccode resume r1a2b3", "ccode resume --last", "ccode resume r1a2b3 --approve-all --non-interactive --json"],
  args: {
    run: { type: "positional", description: "run id (or unique prefix)", required: false },
    last: { type: "boolean", description: "the most recently active resumable run" },
    "approve-all": { type: "boolean", description: "approve every pending request first" },
    "non-interactive": { type: "boolean", description: "never prompt" },
    ...jsonArg,
    ...globalArgs,
  },
  async run({ args }) {
    if (!args.run && !args.last) throw new UsageError("give a run id or --last")
    const session = openSession({ ...args, nonInteractive: args["non-interactive"] })
    try {
      const id = args.run ?? lastResumable(session.store)?.id
      if (!id) throw new UsageError("there is no run to resume; see `ccode runs ls`")
      const result = await resumeRun(session, id, Boolean(args["approve-all"]))
      const next = args.json || args.quiet ? "" : nextSteps(result)
      if (next) process.stderr.write(`${next}\n`)
      return result.exitCode
    } finally {
      session.close()
    }
  },
})
