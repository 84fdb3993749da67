#!/usr/bin/env bun
// ccode entry point: finds the subcommand, loads only its module, maps every error to an exit code.
import type { CommandDef } from "citty"
import { checkFlags } from "./args.ts"
import type { CcodeCommand } from "./command.ts"
import { describeError, Exit, exitCodeFor, UsageError } from "./errors.ts"
import { groupUsage } from "./help.ts"

declare const CCODE_VERSION: string | undefined
const VERSION = typeof CCODE_VERSION === "string" ? CCODE_VERSION : "0.1.0-dev"

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each command has its own args type
type Loader = () => Promise<{ default: CcodeCommand<any> }>
// Subcommands are imported only when used, so `ccode hook` and `ccode policy check` start fast.
const COMMANDS: Record<string, { describe: string; load: Loader }> = {
  run: { describe: "run one or more tasks", load: () => import("./commands/run.ts") },
  resume: { describe: "continue a paused, stopped, interrupted or crashed run", load: () => import("./commands/resume.ts") },
  runs: { describe: "list and inspect runs", load: () => import("./commands/runs.ts") },
  approve: { describe: "approve pending requests of a paused run", load: () => import("./commands/approve.ts") },
  deny: { describe: "deny pending requests of a paused run", load: () => import("./commands/deny.ts") },
  answer: { describe: "answer a question of a paused run", load: () => import("./commands/answer.ts") },
  cancel: { describe: "end a paused or stopped run for good (status cancelled)", load: () => import("./commands/cancel.ts") },
  policy: { describe: "check a call, show the effective policy, test policies, print the schema", load: () => import("./commands/policy.ts") },
  trust: { describe: "trust this workspace's policy and plugin files as they are now", load: () => import("./commands/trust.ts") },
  hook: { describe: "PreToolUse/BeforeTool hook for Claude Code and Gemini CLI", load: () => import("./commands/hook.ts") },
  audit: { describe: "query, export and verify the audit log; per-run reports", load: () => import("./commands/audit.ts") },
  undo: { describe: "restore the workspace to how it was before a run (or step N)", load: () => import("./commands/undo.ts") },
  plugins: { describe: "list tools with their source; load and validate a plugin", load: () => import("./commands/plugins.ts") },
  init: { describe: "scaffold .ccode/: policy, example plugin with types, sample task", load: () => import("./commands/init.ts") },
  mcp: { describe: "serve the guarded tools over MCP stdio", load: () => import("./commands/mcp.ts") },
  db: { describe: "show and migrate the database schema (SQLite file or PostgreSQL)", load: () => import("./commands/db.ts") },
}

export async function main(argv: string[]): Promise<number> {
  const index = argv.findIndex((a) => !a.startsWith("-"))
  const name = index >= 0 && !argv.slice(0, index).includes("--") ? argv[index]! : undefined
  const wantsHelp = helpRequested(argv)
  if (!name) {
    if (argv.includes("--version") || argv.includes("-v")) {
      console.log(VERSION)
      return 0
    }
    if (wantsHelp) console.log(rootUsage())
    else console.error(rootUsage())
    return wantsHelp ? 0 : 2
  }
  // internal, unlisted: the network bridge ccode starts inside a sandbox with a host allowlist (core/sandbox/bridge.ts),
  // and pid 1 of a run's shared sandbox (core/sandbox/hold.ts)
  if (name === "__sandbox-bridge" && index === 0) return (await import("../core/sandbox/bridge.ts")).bridgeMain(argv.slice(1))
  if (name === "__sandbox-hold" && index === 0) return (await import("../core/sandbox/hold.ts")).holdMain()
  // the hooks' hot path: no citty, no command table (every tool call of the host agent pays start-up)
  if (name === "hook" && !wantsHelp) {
    oneShotJit()
    return (await import("./hook.ts")).hookMain(argv.slice(index + 1))
  }
  // `policy check` too: it is what scripts and other tools call per command
  if (name === "policy" && argv[index + 1] === "check" && !wantsHelp) {
    oneShotJit()
    try {
      return await (await import("./policy-check.ts")).policyCheckMain(argv.slice(index + 2))
    } catch (error) {
      return failed("policy", error, argv)
    }
  }
  const entry = COMMANDS[name]
  if (!entry) {
    console.error(`ccode: unknown command "${name}"\n\n${rootUsage()}`)
    return 2
  }
  const { runCommand } = await loadCitty()
  const cmd = (await entry.load()).default
  const rest = argv.slice(index + 1)
  try {
    const sub = await subcommandOf(cmd, rest)
    if (wantsHelp) {
      // help asked for is a result (stdout); a group without a named subcommand lists its subcommands
      console.log(sub.implicit || (cmd.subCommands && !sub.name) ? await groupUsage(cmd, name) : await usage(sub.cmd, name, sub.name))
      return 0
    }
    if (cmd.subCommands && !sub.name) {
      console.error(await groupUsage(cmd, name))
      return 2
    }
    checkFlags(sub.rest, ((await resolve(sub.cmd.args)) ?? {}) as never, sub.name ? `${name} ${sub.name}` : name)
    // run the (sub)command itself with its own arguments: citty drops a subcommand's return value
    // (our exit code) and would take `audit --run ID`'s ID for a subcommand name
    const { result } = await runCommand(sub.cmd as CommandDef, { rawArgs: sub.rest })
    return typeof result === "number" ? result : 0
  } catch (error) {
    return failed(name, error, argv)
  }
}

// A process that decides one call and exits runs almost every function once: JavaScriptCore's JIT
// compiles the modules' top-level code and the first hot loops on its own threads for nothing (on a
// 2-core machine they compete with the main thread). Raising the tier-up thresholds keeps that code in
// the interpreter: same results, ~5 ms less CPU and ~2.5 ms less wall per hook (docs/hosts.md). Only
// these one-shot commands: a run, resume or MCP server keeps the normal policy.
const ONE_SHOT_JIT_SCALE = 100

function oneShotJit(): void {
  Bun.unsafe.setJITPolicy(ONE_SHOT_JIT_SCALE)
}

function failed(name: string, error: unknown, argv: string[]): number {
  // a hook must fail closed: any error blocks the host's call (exit 2), never lets it through
  const code = name === "hook" ? 2 : exitCodeFor(error)
  if (!(error instanceof Exit)) console.error(`ccode ${name}: ${describeError(error)}`)
  // under --json, a script reads stdout: the error is an event there too
  if (code === 2 && jsonRequested(argv) && !(error instanceof Exit)) console.log(JSON.stringify({ type: "error", ts: new Date().toISOString(), exit_code: 2, message: describeError(error) }))
  const hinted = error instanceof Error && error.message.includes("--help")
  if (!hinted && ((error as { name?: string }).name === "CLIError" || error instanceof UsageError)) console.error(`see \`ccode ${name} --help\``)
  return code
}

// --help / -h count only before `--` (after it they belong to the command being checked)
function helpRequested(argv: string[]): boolean {
  const end = argv.indexOf("--")
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === "--help" || a === "-h")
}

async function subcommandOf(cmd: CcodeCommand, rest: string[]): Promise<{ cmd: CcodeCommand; name?: string; rest: string[]; implicit?: boolean }> {
  const subs = await resolve(cmd.subCommands)
  if (!subs) return { cmd, rest }
  const fallback = await resolve(cmd.default)
  const fallbackCmd = fallback && fallback in subs ? ((await resolve(subs[fallback])) as CcodeCommand) : undefined
  // the first word that is not a flag's value (`ccode runs --db x show ID`, `ccode audit --run ID`)
  const args = ((await resolve((fallbackCmd ?? cmd).args)) ?? {}) as Record<string, { type?: string }>
  const i = wordIndex(args, rest)
  const subName = i >= 0 ? rest[i]! : undefined
  if (subName && subName in subs) return { cmd: (await resolve(subs[subName])) as CcodeCommand, name: subName, rest: [...rest.slice(0, i), ...rest.slice(i + 1)] }
  const takesWords = Object.values(args).some((a) => a.type === "positional")
  if (subName !== undefined && !takesWords) throw new UsageError(`unknown subcommand "${subName}"; one of: ${Object.keys(subs).join(", ")}`)
  if (fallbackCmd) return { cmd: fallbackCmd, name: fallback, rest, implicit: true }
  return { cmd, rest }
}

/** Index of the first argument that is neither a flag nor a string flag's value; -1 when none (or after `--`). */
function wordIndex(args: Record<string, { type?: string }>, rest: string[]): number {
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!
    if (a === "--") return -1
    if (!a.startsWith("-")) return i
    if (!a.includes("=") && args[a.replace(/^--?/, "")]?.type === "string") i++
  }
  return -1
}

function jsonRequested(argv: string[]): boolean {
  const end = argv.indexOf("--")
  return (end < 0 ? argv : argv.slice(0, end)).includes("--json")
}

async function usage(cmd: CcodeCommand, name: string, sub?: string): Promise<string> {
  const { renderUsage } = await loadCitty()
  const meta = (await resolve(cmd.meta)) ?? {}
  const text = await renderUsage({ ...cmd, meta: { ...meta, name: `ccode ${name}${sub ? ` ${sub}` : ""}` } } as CommandDef)
  const examples = cmd.examples?.length ? `\n\nEXAMPLES\n\n${cmd.examples.map((e) => `  ${e}`).join("\n")}` : ""
  return text + examples
}

function rootUsage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length))
  const lines = Object.entries(COMMANDS).map(([n, c]) => `  ${n.padEnd(width)}  ${c.describe}`)
  return [
    `ccode ${VERSION} — run AI-agent and scripted tasks under declarative guard rails`,
    "",
    "USAGE  ccode <command> [options]",
    "",
    "COMMANDS",
    ...lines,
    "",
    "EXAMPLES",
    "  ccode run examples/quickstart/task.yaml",
    "  ccode run a.yaml b.yaml --jobs 2 --non-interactive --json",
    "  ccode resume --last",
    "",
    "Run `ccode <command> --help` for the options of a command.",
  ].join("\n")
}

// citty picks its colours when it loads: none unless stderr (where help goes) is a terminal. The
// variable is set only for that moment, so the tools a run starts see the user's environment as it is.
async function loadCitty(): Promise<typeof import("citty")> {
  const before = process.env.NO_COLOR
  if (!process.stderr.isTTY) process.env.NO_COLOR = "1"
  try {
    return await import("citty")
  } finally {
    if (before === undefined) delete process.env.NO_COLOR
    else process.env.NO_COLOR = before
  }
}

async function resolve<T>(value: T | Promise<T> | (() => T | Promise<T>) | undefined): Promise<T | undefined> {
  return typeof value === "function" ? await (value as () => T | Promise<T>)() : await value
}

if (import.meta.main) {
  const code = await main(process.argv.slice(2))
  process.exit(code)
}
