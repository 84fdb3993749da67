// ccode policy check|show|test|schema: decide a call without running it, show the effective policy
// with the source of every value, prove policy examples, print JSON Schema. Heavy modules load lazily.
import { existsSync, statSync } from "node:fs"
import { homedir } from "node:os"
import { resolve } from "node:path"
import { decide, findWorkspaceRoot, prepareCall, userPolicyFile, workspacePolicyFiles } from "../../core/policy/index.ts"
import { loadForCli } from "../policy-load.ts"
import { checkArgs, directory, runCheck, warn } from "../policy-check.ts"
import type { Decision } from "../../core/policy/types.ts"
import type { Risk } from "../../core/base/risk.ts"
import type { SqliteStore as Store } from "../../core/store/sqlite.ts"
import { afterDashes, allValues, globalArgs, jsonArg } from "../args.ts"
import { command } from "../command.ts"
import { Exit, UsageError } from "../errors.ts"
import { keygen, sign } from "./policy-sign.ts"

const check = command({
  meta: { name: "check", description: "Decide one call with the effective policy, without running it" },
  examples: [
    "ccode policy check -- git push --force origin main",
    "ccode policy check --json -- 'git status && git push'",
    "ccode policy check --tool write_file --args '{\"path\": \".env\", \"content\": \"\"}'",
    "ccode policy check --policy strict --cwd ../other-repo -- rm -rf build",
  ],
  args: checkArgs,
  run: ({ args, rawArgs }) => runCheck(args, rawArgs),
})

const show = command({
  meta: { name: "show", description: "Print the effective policy and where each value came from" },
  examples: ["ccode policy show", "ccode policy show --json | jq .sources", "ccode policy show --policy ci --cwd ../repo"],
  args: {
    ...jsonArg,
    cwd: { type: "string", description: "directory whose policy applies (default: current)", valueHint: "DIR" },
    policy: { type: "string", description: "extra policy file or bundled name, trusted; repeatable", valueHint: "FILE|NAME" },
    trust: { type: "boolean", description: "treat the workspace policy as trusted" },
    ...globalArgs,
  },
  async run({ args, rawArgs }) {
    const cwd = directory(args.cwd)
    const loaded = await loadForCli({ cwd, flags: { policy: allValues(rawArgs, "policy") }, trust: Boolean(args.trust), db: args.db as string | undefined })
    if (args.json) {
      console.log(JSON.stringify({ workspace_root: loaded.workspace, untrusted: loaded.untrusted, warnings: loaded.warnings, ...loaded.policy }, null, 2))
      return 0
    }
    warn(loaded.warnings)
    const { describePolicy } = await import("../../core/policy/describe.ts")
    console.log(describePolicy(loaded.policy, { workspace: loaded.workspace, layers: loaded.layers }))
    return 0
  },
})

const test = command({
  meta: { name: "test", description: "Run the examples embedded in policies (default: bundled + the ones in effect here)" },
  examples: ["ccode policy test", "ccode policy test .ccode/policy.yaml .ccode/policies/*.yaml"],
  args: {
    ...jsonArg,
    file: { type: "positional", description: "policy files to test", required: false },
    ...globalArgs,
  },
  async run({ args }) {
    const files = (args._ as string[]).map((f) => resolve(f))
    const { testPolicies } = await import("../../core/policy/selftest.ts")
    const targets = files.length ? files : defaultTestTargets(process.cwd())
    const results = await testPolicies(targets)
    if (args.json) console.log(JSON.stringify(results, null, 2))
    else {
      for (const r of results) {
        console.log(`${r.failures.length ? "FAIL" : "ok  "}  ${r.name}  (${r.examples} example${r.examples === 1 ? "" : "s"})`)
        for (const f of r.failures) console.log(`      ${f.where}: ${f.problem}`)
      }
    }
    // a policy whose examples fail is an invalid policy: the same exit code as loading it
    // (thrown: citty drops a subcommand's return value)
    if (results.some((r) => r.failures.length)) throw new Exit(2)
    return 0
  },
})

const schema = command({
  meta: { name: "schema", description: "Print the JSON Schema of policy files (default) or task files, for editor completion" },
  examples: [
    "ccode policy schema > ccode-policy.schema.json   # then: # yaml-language-server: $schema=./ccode-policy.schema.json",
    "ccode policy schema task > ccode-task.schema.json",
  ],
  args: { kind: { type: "positional", description: "policy | task", required: false }, ...globalArgs },
  async run({ args }) {
    const kind = (args._ as string[])[0] ?? "policy"
    if (kind !== "policy" && kind !== "task") throw new UsageError(`policy schema takes "policy" or "task", got "${kind}"`)
    const { z } = await import("zod")
    const target = kind === "policy" ? (await import("../../core/policy/schema.ts")).PolicyFile : (await import("../../core/task/schema.ts")).TaskFile
    const json = z.toJSONSchema(target, { io: "input", unrepresentable: "any" }) as Record<string, unknown>
    console.log(JSON.stringify({ ...json, $id: `https://ccode.dev/schema/${kind}.json`, title: `ccode ${kind} file` }, null, 2))
    return 0
  },
})

export default command({
  meta: { name: "policy", description: "Check a call, show the effective policy, test policy examples, print JSON Schema, sign policies" },
  examples: ["ccode policy check -- git push --force", "ccode policy show", "ccode policy test", "ccode policy schema > policy.schema.json", "ccode policy sign FILE --key KEY"],
  subCommands: { check, show, test, schema, sign, keygen },
})

// loadForCli lives in cli/policy-load.ts and `policy check` in cli/policy-check.ts: main.ts runs the
// hooks and `policy check` without loading citty or this file
export { loadForCli, type CliLoad } from "../policy-load.ts"
export { renderDecision } from "../policy-check.ts"


function defaultTestTargets(cwd: string): string[] {
  const files = workspacePolicyFiles(findWorkspaceRoot(cwd))
  const user = userPolicyFile(process.env, homedir())
  return ["builtin:default", "builtin:strict", "builtin:ci", ...(existsSync(user) ? [user] : []), ...files]
}

