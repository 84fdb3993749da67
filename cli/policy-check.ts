// `ccode policy check`: decide one call without running it. Kept apart from the other policy commands
// and from citty so main.ts can run it without loading either (its start-up is budgeted).
import { statSync } from "node:fs"
import { homedir } from "node:os"
import { join, resolve } from "node:path"
import type { ArgsDef } from "citty"
import { decide, prepareCall } from "../core/policy/index.ts"
import type { Risk } from "../core/base/risk.ts"
import type { Decision, Policy } from "../core/policy/types.ts"
import { afterDashes, allValues, checkFlags, globalArgs, jsonArg } from "./args.ts"
import { UsageError } from "./errors.ts"
import { loadForCli } from "./policy-load.ts"
import { mark } from "./trace.ts"

export const checkArgs = {
  ...jsonArg,
  tool: { type: "string", description: "tool to decide (default shell)", valueHint: "NAME" },
  args: { type: "string", description: "the tool's arguments as a JSON object", valueHint: "JSON" },
  cwd: { type: "string", description: "directory whose policy applies (default: current)", valueHint: "DIR" },
  policy: { type: "string", description: "extra policy file or bundled name (default|strict|ci), trusted; repeatable", valueHint: "FILE|NAME" },
  trust: { type: "boolean", description: "treat the workspace policy as trusted" },
  ...globalArgs,
} as const satisfies ArgsDef

export interface CheckArgs {
  json?: boolean
  tool?: string
  args?: string
  cwd?: string
  trust?: boolean
  db?: string
}

/** argv after `policy check`, parsed the way citty would (flags before `--`, the command after it). */
export async function policyCheckMain(rawArgs: string[]): Promise<number> {
  checkFlags(rawArgs, checkArgs, "policy check")
  const args: CheckArgs & Record<string, unknown> = {}
  for (let i = 0; i < rawArgs.length; i++) {
    const raw = rawArgs[i]!
    if (raw === "--") break
    if (!raw.startsWith("-")) throw new UsageError(`unexpected argument "${raw}": put the command after --, e.g. ccode policy check -- git status`)
    const eq = raw.indexOf("=")
    const name = raw.replace(/^--?/, "").split("=")[0]!
    const def = (checkArgs as Record<string, { type: string }>)[name]
    if (def?.type === "string") args[name] = eq >= 0 ? raw.slice(eq + 1) : rawArgs[++i]
    else if (name.startsWith("no-")) args[name.slice(3)] = false
    else args[name] = eq >= 0 ? raw.slice(eq + 1) !== "false" : true
  }
  return runCheck(args, rawArgs)
}

export async function runCheck(args: CheckArgs, rawArgs: string[]): Promise<number> {
  mark("entry")
  const cwd = directory(args.cwd)
  const tool = (args.tool as string | undefined) ?? "shell"
  const callArgs = await callArguments(tool, args.args as string | undefined, afterDashes(rawArgs))
  const loaded = await loadForCli({ cwd, flags: { policy: allValues(rawArgs, "policy") }, trust: Boolean(args.trust), db: args.db as string | undefined })
  warn(loaded.warnings)
  mark("policy load")
  const known = await knownTool(tool, callArgs, Boolean(args.args))
  const plugin = known.plugin ? await pluginDecision(tool, callArgs, loaded.policy, { cwd, workspace: loaded.workspace, trust: Boolean(args.trust), db: args.db as string | undefined }) : undefined
  const decision = plugin ?? decide(loaded.policy, await prepareCall(tool, callArgs, {
    cwd, workspace: loaded.workspace, home: homedir(), env: process.env, toolRisk: known.toolRisk, overrides: loaded.policy.risk.overrides, policy: loaded.policy,
  }), { grants: [] })
  mark("decide")
  if (args.json) console.log(JSON.stringify(decision, null, 2))
  else console.log(renderDecision(decision))
  mark("print")
  return 0
}

export function directory(given: unknown): string {
  const dir = resolve(typeof given === "string" && given ? given : process.cwd())
  let ok = false
  try {
    ok = statSync(dir).isDirectory()
  } catch {}
  if (!ok) throw new UsageError(`--cwd ${dir} is not a directory`)
  return dir
}

export function warn(lines: string[]): void {
  for (const line of lines) console.error(`warning: ${line}`)
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
async function knownTool(tool: string, args: Record<string, unknown>, given: boolean): Promise<{ toolRisk?: Risk; plugin?: boolean }> {
  if (!given && tool === "shell") return {}
  const { createRegistry } = await import("../core/tools/registry.ts")
  const registered = createRegistry().get(tool)
  if (!registered) return { plugin: true }
  const parsed = registered.tool.args.safeParse(args)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "args"}: ${i.message}`).join("; ")
    throw new UsageError(`--args do not fit ${tool}: ${problems}`)
  }
  return { toolRisk: typeof registered.tool.risk === "string" ? registered.tool.risk : undefined }
}

/**
 * A tool that is not built in: the workspace's (trusted) plugins are loaded as a run would load them,
 * and the call is decided as the run decides it (decideProposal: its zod defaults, its risk function,
 * its declared paths, the plugins' beforeCall hooks). Undefined when no plugin has the tool.
 */
async function pluginDecision(tool: string, args: Record<string, unknown>, policy: Policy, at: { cwd: string; workspace: string; trust: boolean; db?: string }): Promise<Decision | undefined> {
  const [{ createRegistry }, { addExtraTools }, { decideProposal }, { createGovernor }, { ccodeHome }, { openTrust }] = await Promise.all([
    import("../core/tools/registry.ts"), import("../core/plugins/extras.ts"), import("../core/runner/decide-call.ts"), import("../core/runner/governor.ts"),
    import("./home.ts"), import("./trust-open.ts"),
  ])
  const trust = await openTrust(at.db)
  try {
    const registry = createRegistry()
    const extras = await addExtraTools({
      registry, workspace: at.workspace, cwd: at.cwd, env: process.env, home: homedir(), servers: {}, onClash: () => {},
      isTrusted: at.trust ? () => true : trust.in(at.workspace), cacheDir: join(ccodeHome(process.env), "cache"),
    })
    try {
      const found = registry.get(tool)?.tool
      if (!found) {
        for (const problem of extras.problems) console.error(`warning: ${problem}`)
        return undefined
      }
      const parsed = found.args.safeParse(args)
      if (!parsed.success) throw new UsageError(`--args do not fit ${tool}: ${parsed.error.issues.map((i) => `${i.path.join(".") || "args"}: ${i.message}`).join("; ")}`)
      const governor = createGovernor(policy, at.workspace, process.env)
      const deciding = { registry, governor, cwd: at.cwd, workspace: at.workspace, hooks: extras.hooks, runId: "policy-check" }
      return (await decideProposal(deciding, { tool, args }, { callId: "policy-check", state: { grants: [] } })).decision
    } finally {
      await extras.close()
    }
  } finally {
    trust.close()
  }
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
