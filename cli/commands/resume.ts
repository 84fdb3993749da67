import { existsSync } from "node:fs"
import { resolve } from "node:path"
import { resumeRun } from "../../core/runner/lifecycle.ts"
import { allValues, globalArgs, jsonArg, positiveInt } from "../args.ts"
import { command } from "../command.ts"
import { UsageError } from "../errors.ts"
import { nextSteps, openSession } from "../session.ts"
import { approvalFlag, durationFlag } from "./run.ts"
import { parseVarFlags } from "../../core/task/inputs.ts"

export default command({
  meta: { name: "resume", description: "Continue a paused, stopped, interrupted or crashed run from its last checkpoint" },
  examples: [
    "ccode resume r1a2b3",
    "ccode resume --last",
    "ccode resume r1a2b3 --approve-all --non-interactive --json",
    "ccode resume r1a2b3 --max-steps 40           # a max_steps stop goes on with the raised limit",
    "ccode resume r1a2b3 --yes --policy ci        # change how the rest of the run is approved",
  ],
  args: {
    run: { type: "positional", description: "run id (or unique prefix)", required: false },
    last: { type: "boolean", description: "the most recently active resumable run" },
    "approve-all": { type: "boolean", description: "approve every pending request first" },
    "non-interactive": { type: "boolean", description: "never prompt" },
    policy: { type: "string", description: "add a policy file or bundled name on top of the run's; repeatable", valueHint: "FILE|NAME" },
    "max-steps": { type: "string", description: "new limit of agent turns (counted from the run's start)", valueHint: "N" },
    "max-wall-time": { type: "string", description: "new wall-time limit (counted across resumes), e.g. 1h", valueHint: "DURATION" },
    "auto-approve": { type: "string", description: "from now on auto-approve calls up to this risk (safe|low|medium|high)", valueHint: "LEVEL" },
    yes: { type: "boolean", description: "from now on auto-approve up to high (critical still asks)" },
    var: { type: "string", description: "a task input, as given to the run (values are not stored); repeatable", valueHint: "NAME=VALUE" },
    ...jsonArg,
    ...globalArgs,
  },
  async run({ args, rawArgs }) {
    if (!args.run && !args.last) throw new UsageError("give a run id or --last")
    // every flag is checked before anything is changed
    const overrides = {
      // kept with the run: a file is stored by its absolute path, so a later resume finds it from anywhere
      policy: allValues(rawArgs, "policy").map((p) => (existsSync(p) ? resolve(p) : p)),
      yes: Boolean(args.yes),
      autoApprove: approvalFlag(args["auto-approve"]),
      maxSteps: positiveInt(args["max-steps"], "--max-steps"),
      maxWallTime: durationFlag(args["max-wall-time"], "--max-wall-time"),
      vars: parseVarFlags(allValues(rawArgs, "var")),
    }
    const session = await openSession({ ...args, nonInteractive: args["non-interactive"] })
    try {
      const id = args.run ?? (await session.store.lastResumable())?.id
      if (!id) throw new UsageError("there is no run to resume; see `ccode runs ls`")
      const result = await resumeRun(session, id, Boolean(args["approve-all"]), overrides)
      const next = args.json || args.quiet ? "" : nextSteps(result)
      if (next) process.stderr.write(`${next}\n`)
      return result.exitCode
    } finally {
      await session.close()
    }
  },
})
