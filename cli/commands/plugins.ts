// ccode plugins [ls|check FILE]: the tools a run here would get, with their source and risk; and a
// plugin file loaded and validated on its own (exit 2 with the reason when anything is wrong).
import { existsSync } from "node:fs"
import { homedir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { openTrust } from "../trust-open.ts"
import { allValues, globalArgs, jsonArg } from "../args.ts"
import { command } from "../command.ts"
import { Exit, UsageError } from "../errors.ts"
import { ccodeHome } from "../home.ts"
import { renderTable } from "../ui/table.ts"
import { loadForCli } from "./policy.ts"

const ls = command({
  meta: { name: "ls", description: "List the tools a run here gets: built-ins, plugins, MCP server tools" },
  examples: ["ccode plugins ls", "ccode plugins ls --json | jq '.[] | select(.origin != \"builtin\")'", "ccode plugins ls --no-mcp --cwd ../repo"],
  args: {
    cwd: { type: "string", description: "directory whose workspace and policy apply (default: current)", valueHint: "DIR" },
    policy: { type: "string", description: "extra policy file or bundled name, trusted; repeatable", valueHint: "FILE|NAME" },
    trust: { type: "boolean", description: "load the workspace's plugins even when not trusted" },
    mcp: { type: "boolean", description: "connect to the policy's MCP servers to list their tools (--no-mcp skips them)", default: true },
    ...jsonArg,
    ...globalArgs,
  },
  async run({ args, rawArgs }) {
    const cwd = resolve((args.cwd as string | undefined) ?? ".")
    if (!existsSync(cwd)) throw new UsageError(`--cwd ${cwd} does not exist`)
    const trust = Boolean(args.trust)
    const store = await openTrust(args.db as string | undefined)
    try {
      const loaded = await loadForCli({ cwd, flags: { policy: allValues(rawArgs, "policy") }, trust, trustIn: async (workspace) => store.in(workspace) })
      const { inventory } = await import("../../core/plugins/inventory.ts")
      const found = await inventory({
        workspace: loaded.workspace, cwd, env: process.env, home: homedir(), policy: loaded.policy,
        servers: args.mcp === false ? {} : loaded.policy.mcp.servers,
        isTrusted: trust ? () => true : store.in(loaded.workspace),
        cacheDir: join(ccodeHome(), "cache"),
      })
      for (const line of [...found.problems, ...found.clashes]) process.stderr.write(`! ${line}\n`)
      if (args.json) console.log(JSON.stringify(found.tools, null, 2))
      else {
        const rows = found.tools.map((t) => [t.name, t.risk_from === "policy" ? `${t.risk} (policy)` : t.risk, t.source, oneLine(t.description)])
        console.log(renderTable(["tool", "risk", "source", "description"], rows))
      }
      return found.clashes.length ? 2 : 0
    } finally {
      store.close()
    }
  },
})

const check = command({
  meta: { name: "check", description: "Load a plugin file and validate every export (exit 2 with the reason)" },
  examples: ["ccode plugins check .ccode/plugins/example.ts", "ccode plugins check tools/jira.ts --json"],
  args: {
    file: { type: "positional", description: "the plugin file (.ts)", required: true },
    ...jsonArg,
    ...globalArgs,
  },
  async run({ args }) {
    const file = resolve(args.file as string)
    if (!existsSync(file)) throw new UsageError(`${file} does not exist`)
    const { checkPluginFile } = await import("../../core/plugins/check.ts")
    const { findWorkspaceRoot } = await import("../../core/policy/workspace.ts")
    // trust is reported for the workspace the file sits in; checking loads it either way
    const workspace = findWorkspaceRoot(dirname(file))
    const store = await openTrust(args.db as string | undefined)
    let report
    try {
      report = await checkPluginFile(file, { cacheDir: join(ccodeHome(), "cache"), isTrusted: store.in(workspace) })
    } finally {
      store.close()
    }
    if (args.json) console.log(JSON.stringify(report, null, 2))
    else {
      for (const tool of report.tools) console.log(`tool ${tool.name}  risk ${tool.risk}${tool.timeout !== undefined ? `  timeout ${tool.timeout}` : ""}  ${oneLine(tool.description)}`)
      for (const hook of report.hooks) console.log(`hook ${hook}`)
      for (const input of report.inputs) console.log(`input ${input.trusted ? "trusted  " : "untrusted"}  ${input.path}  sha256:${input.sha256.slice(0, 12)}`)
      for (const problem of report.problems) console.error(`${file}: ${problem}`)
      if (report.ok) console.error(`${file}: ok (${report.tools.length} tool(s), ${report.hooks.length} hook(s))`)
    }
    if (!report.ok) throw new Exit(2)
    return 0
  },
})

export default command({
  meta: { name: "plugins", description: "List tools with their source; load and validate a plugin" },
  examples: ["ccode plugins", "ccode plugins ls --json", "ccode plugins check .ccode/plugins/example.ts"],
  subCommands: { ls, check },
  default: "ls",
})

function oneLine(text: string): string {
  const line = text.split("\n")[0]!.trim()
  return line.length > 80 ? `${line.slice(0, 77)}...` : line
}
