// ccode policy check|show|test|schema: decide a call without running it, show the effective policy
// with the source of every value, prove policy examples, print JSON Schema. Heavy modules load lazily.
import { existsSync, statSync } from "node:fs"
import { homedir } from "node:os"
import { join, resolve } from "node:path"
import { decide, loadPolicy, prepareCall, findWorkspaceRoot, workspacePolicyFiles, userPolicyFile } from "../../core/policy/index.ts"
import type { LoadedPolicy, PolicyFlags, IsTrusted } from "../../core/policy/index.ts"
import type { Decision } from "../../core/policy/types.ts"
import type { Risk } from "../../core/policy/risk.ts"
import type { SqliteStore as Store } from "../../core/store/sqlite.ts"
import { ccodeHome } from "../home.ts"
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
  args: {
    ...jsonArg,
    tool: { type: "string", description: "tool to decide (default shell)", valueHint: "NAME" },
    args: { type: "string", description: "the tool's arguments as a JSON object", valueHint: "JSON" },
    cwd: { type: "string", description: "directory whose policy applies (default: current)", valueHint: "DIR" },
    policy: { type: "string", description: "extra policy file or bundled name (default|strict|ci), trusted; repeatable", valueHint: "FILE|NAME" },
    trust: { type: "boolean", description: "treat the workspace policy as trusted" },
    ...globalArgs,
  },
  async run({ args, rawArgs }) {
    const cwd = directory(args.cwd)
    const tool = (args.tool as string | undefined) ?? "shell"
    const callArgs = await callArguments(tool, args.args as string | undefined, afterDashes(rawArgs))
    const loaded = await loadForCli({ cwd, flags: { policy: allValues(rawArgs, "policy") }, trust: Boolean(args.trust), db: args.db as string | undefined })
    warn(loaded.warnings)
    const { toolRisk } = await knownTool(tool, callArgs, Boolean(args.args))
    const call = await prepareCall(tool, callArgs, {
      cwd, workspace: loaded.workspace, home: homedir(), env: process.env, toolRisk, overrides: loaded.policy.risk.overrides,
    })
    const decision = decide(loaded.policy, call, { grants: [] })
    if (args.json) console.log(JSON.stringify(decision, null, 2))
    else console.log(renderDecision(decision))
    return 0
  },
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

export interface CliLoad {
  cwd: string
  flags?: PolicyFlags
  trust?: boolean
  db?: string
  /** an already open store to check trust with (the hook writes its audit row to it too) */
  store?: Store
}

/**
 * The effective policy of `cwd` for the CLI (check, show, hook). The trust database is opened only
 * when there are workspace policy files to check, so a plain directory never loads the store.
 */
export async function loadForCli(opts: CliLoad): Promise<LoadedPolicy> {
  const workspace = findWorkspaceRoot(opts.cwd)
  const env = process.env
  const home = homedir()
  const repoFiles = workspacePolicyFiles(workspace).length > 0
  const cacheDir = repoFiles || existsSync(userPolicyFile(env, home)) ? join(ccodeHome(env), "cache") : undefined
  let store = opts.store
  const opened = !store && repoFiles && !opts.trust
  if (opened) {
    const [{ openSqlite }, { dbPath }] = await Promise.all([import("../../core/store/sqlite.ts"), import("../home.ts")])
    store = openSqlite(dbPath(opts.db))
  }
  try {
    let isTrusted: IsTrusted = () => false
    if (store && repoFiles) {
      const { isTrustedFile } = await import("../../core/store/trust.ts")
      const db = store
      isTrusted = (file, hash) => isTrustedFile(db, file, hash)
    }
    return await loadPolicy({ cwd: opts.cwd, home, env, isTrusted, trustAll: opts.trust, flags: opts.flags, cacheDir, workspace })
  } finally {
    if (opened) store?.close()
  }
}

function directory(given: unknown): string {
  const dir = resolve(typeof given === "string" && given ? given : process.cwd())
  let ok = false
  try {
    ok = statSync(dir).isDirectory()
  } catch {}
  if (!ok) throw new UsageError(`--cwd ${dir} is not a directory`)
  return dir
}

async function callArguments(tool: string, json: string | undefined, words: string[]): Promise<Record<string, unknown>> {
  let args: Record<string, unknown> = {}
  if (json !== undefined) {
    let parsed: unknown
    try {
      parsed = JSON.parse(json)
    } catch (err) {
      throw new UsageError(`--args is not valid JSON: ${(err as Error).message}`)
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new UsageError("--args must be a JSON object")
    args = parsed as Record<string, unknown>
  }
  if (words.length) {
    if (tool !== "shell") throw new UsageError(`a command after -- is for the shell tool; for ${tool} give --args`)
    args.command = joinCommand(words)
  }
  if (tool === "shell" && typeof args.command !== "string") throw new UsageError("give the command after --, e.g. ccode policy check -- git status")
  return args
}

// One word: the user quoted a whole command line. Several: the shell split it, so quote words again.
function joinCommand(words: string[]): string {
  if (words.length === 1) return words[0]!
  return words.map((w) => (/^[A-Za-z0-9_@%+=:,./~^-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(" ")
}

// A built-in tool's arguments are validated against its schema and its own risk used, as in a run;
// plain `check -- CMD` skips the tool registry (and zod) entirely.
async function knownTool(tool: string, args: Record<string, unknown>, given: boolean): Promise<{ toolRisk?: Risk }> {
  if (!given && tool === "shell") return {}
  const { createRegistry } = await import("../../core/tools/registry.ts")
  const registered = createRegistry().get(tool)
  if (!registered) return {}
  const parsed = registered.tool.args.safeParse(args)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "args"}: ${i.message}`).join("; ")
    throw new UsageError(`--args do not fit ${tool}: ${problems}`)
  }
  return { toolRisk: typeof registered.tool.risk === "string" ? registered.tool.risk : undefined }
}

function defaultTestTargets(cwd: string): string[] {
  const files = workspacePolicyFiles(findWorkspaceRoot(cwd))
  const user = userPolicyFile(process.env, homedir())
  return ["builtin:default", "builtin:strict", "builtin:ci", ...(existsSync(user) ? [user] : []), ...files]
}

function warn(lines: string[]): void {
  for (const line of lines) console.error(`warning: ${line}`)
}

export function renderDecision(d: Decision): string {
  const out = [`${d.decision}  (risk ${d.risk}, by ${d.by}${d.decision === "ask" ? `; nobody to answer: ${d.on_ask}` : ""})`, `  ${d.reason}`]
  if (d.rules.length) {
    out.push("rules:")
    for (const r of d.rules) out.push(`  ${r.decision.padEnd(5)} ${r.id}  ${r.source}${r.reason ? `  — ${r.reason}` : ""}`)
  }
  if (d.commands.length) {
    out.push("commands:")
    for (const c of d.commands) {
      const decided = c.decision ? `  ${c.decision}${c.rule ? ` (${c.rule})` : ""}` : ""
      out.push(`  ${c.text}  [${c.risk}${c.reasons[0] ? `: ${c.reasons[0]}` : ""}]${decided}`)
    }
  }
  return out.join("\n")
}
