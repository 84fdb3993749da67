// ccode init [DIR]: scaffold .ccode/ — a policy, an example plugin with its types and tsconfig, a sample
// task. Never overwrites a file without --force; trusts the policy and plugin it wrote (ccode wrote them).
import { existsSync, mkdirSync, realpathSync, statSync, writeFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { sha256 } from "../../core/base/hash.ts"
import { findWorkspaceRoot } from "../../core/policy/workspace.ts"
import { scaffoldFiles } from "../../core/plugins/scaffold.ts"
import { globalArgs, jsonArg } from "../args.ts"
import { command } from "../command.ts"
import { UsageError } from "../errors.ts"
import { openRunDb } from "../paths.ts"

export default command({
  meta: { name: "init", description: "Scaffold .ccode/: a policy, an example plugin with editor types, a sample task" },
  examples: ["ccode init", "ccode init ../other-repo", "ccode init --force   # rewrite the scaffold files"],
  args: {
    dir: { type: "positional", description: "where (default: the workspace of the current directory: nearest .ccode/, else git root, else here)", required: false },
    force: { type: "boolean", description: "overwrite files that exist" },
    ...jsonArg,
    ...globalArgs,
  },
  async run({ args }) {
    const given = args.dir ? resolve(args.dir as string) : findWorkspaceRoot(process.cwd())
    if (!existsSync(given) || !statSync(given).isDirectory()) throw new UsageError(`${given} is not a directory`)
    const root = realpathSync(given) // trust is recorded by real path, as the policy loader looks it up
    const results = scaffoldFiles().map((file) => {
      const path = join(root, file.path)
      if (existsSync(path) && !args.force) return { path, status: "kept" as const, trust: false }
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(path, file.content)
      return { path, status: "written" as const, trust: file.trust, hash: sha256(file.content) }
    })
    const trusted = results.filter((r) => r.status === "written" && r.trust)
    if (trusted.length) {
      const { store } = await openRunDb(args.db as string | undefined)
      try {
        await store.setTrust(trusted.map((r) => ({ workspace: root, path: r.path, hash: r.hash! })), () => ({
          type: "trust", actor: "user", action: "trust", result: "success",
          reason: `ccode init trusted the ${trusted.length} file(s) it wrote`,
          data: JSON.stringify(trusted.map((r) => ({ file: r.path, sha256: r.hash }))),
        }))
      } finally {
        await store.close()
      }
    }
    if (args.json) {
      console.log(JSON.stringify({ root, files: results.map((r) => ({ path: r.path, status: r.status, trusted: r.status === "written" && r.trust })) }, null, 2))
      return 0
    }
    for (const r of results) console.log(`${r.status === "written" ? "wrote" : "kept "}  ${relative(process.cwd(), r.path) || r.path}${r.status === "kept" ? "  (exists; --force rewrites it)" : ""}`)
    console.error(
      [
        "",
        trusted.length ? "trusted the policy and plugin ccode wrote; after editing them, review and run `ccode trust`" : "",
        "next:",
        `  ccode run ${relative(process.cwd(), join(root, ".ccode/tasks/example.yaml"))}`,
        `  ccode plugins check ${relative(process.cwd(), join(root, ".ccode/plugins/example.ts"))}`,
        "  ccode policy show",
      ].filter(Boolean).join("\n"),
    )
    return 0
  },
})
