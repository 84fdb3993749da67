// ccode mcp: serve the built-in and plugin tools over MCP stdio, every call under the policy of the
// workspace (one long-lived run, driver "mcp"). stdout is the protocol: everything else goes to stderr.
import { realpathSync, statSync } from "node:fs"
import { resolve } from "node:path"
import { RISKS, type Risk } from "../../core/base/risk.ts"
import type { RunOptions } from "../../core/runner/context.ts"
import { silentReporter } from "../../core/runner/events.ts"
import { allValues, globalArgs } from "../args.ts"
import { command } from "../command.ts"
import { UsageError } from "../errors.ts"
import { ccodeHome, openRunDb } from "../paths.ts"
import { isPostgresUrl, redactUrl } from "../../core/store/target.ts"
import { nobody } from "../ui/human.ts"
import { humanReporter } from "../ui/reporters.ts"

declare const CCODE_VERSION: string | undefined

export default command({
  meta: { name: "mcp", description: "Serve the guarded tools (built-ins and plugins) over MCP stdio" },
  examples: [
    "ccode mcp                                   # in a client's config: {\"command\": \"ccode\", \"args\": [\"mcp\"]}",
    "ccode mcp --cwd ~/src/app --policy strict",
    "claude mcp add ccode -- ccode mcp --cwd $PWD",
  ],
  args: {
    cwd: { type: "string", description: "the workspace to serve (default: current directory)", valueHint: "DIR" },
    policy: { type: "string", description: "extra policy file or bundled name (default|strict|ci); repeatable", valueHint: "FILE|NAME" },
    "auto-approve": { type: "string", description: "auto-approve calls up to this risk (safe|low|medium|high)", valueHint: "LEVEL" },
    yes: { type: "boolean", description: "auto-approve up to high (critical still needs a person)" },
    trust: { type: "boolean", description: "trust this workspace's policy and plugins for this session" },
    ...globalArgs,
  },
  async run({ args, rawArgs }) {
    const cwd = directory(args.cwd as string | undefined)
    const auto = args["auto-approve"] as string | undefined
    if (auto !== undefined && !RISKS.includes(auto as Risk)) throw new UsageError(`--auto-approve takes one of ${RISKS.join(", ")}, got "${auto}"`)
    // plugin code that prints must not corrupt the protocol on stdout
    console.log = console.error
    console.info = console.error
    const options: RunOptions = {
      nonInteractive: true, jobs: 1, dryRun: false, trust: Boolean(args.trust), policy: allValues(rawArgs, "policy"),
      autoApprove: auto as Risk | undefined, yes: Boolean(args.yes),
    }
    const db = args.db as string | undefined
    const { store, local } = await openRunDb(db)
    const stop = new AbortController()
    const onSignal = () => stop.abort()
    process.on("SIGINT", onSignal)
    process.on("SIGTERM", onSignal)
    const live = args.verbose ? humanReporter({ tty: false, quiet: false, verbose: true, batch: false }) : undefined
    try {
      const { openMcpSession } = await import("../../core/mcp/session.ts")
      const { serveMcp } = await import("../../core/mcp/server.ts")
      const session = await openMcpSession(
        { store, local, home: ccodeHome(), human: nobody, reporter: live ?? silentReporter, env: process.env, interrupt: stop.signal },
        // the hint is shown to the MCP client: a URL's password never is
        { cwd, options, dbHint: db && isPostgresUrl(db) ? redactUrl(db) : db },
      )
      for (const problem of session.problems) process.stderr.write(`ccode mcp: ! ${problem}\n`)
      if (!args.quiet) process.stderr.write(`ccode mcp: serving ${session.tools.length} tools for ${cwd} (run ${session.runId})\n`)
      await serveMcp(session, { version: typeof CCODE_VERSION === "string" ? CCODE_VERSION : "0.1.0-dev", stop: stop.signal })
      const result = await session.close()
      if (!args.quiet) process.stderr.write(`ccode mcp: session ended, run ${result.runId} ${result.status}\n`)
      return 0
    } finally {
      process.off("SIGINT", onSignal)
      process.off("SIGTERM", onSignal)
      live?.stop()
      await store.close()
    }
  },
})

function directory(dir: string | undefined): string {
  const path = resolve(dir ?? ".")
  try {
    if (statSync(path).isDirectory()) return realpathSync(path)
  } catch {
    // reported below
  }
  throw new UsageError(`--cwd ${path} is not a directory`)
}
