// ccode trust [DIR|FILE...] [--revoke]: record (or forget) the content hash of a workspace's policy and
// plugin files, so their grants apply and their plugins load. Editing a file makes it untrusted again.
import { readFileSync, statSync } from "node:fs"
import { homedir } from "node:os"
import { resolve } from "node:path"
import { findWorkspaceRoot, loadPolicy, sha256, trustableFiles } from "../../core/policy/index.ts"
import { recordTrust, revokeTrust } from "../../core/store/trust.ts"
import { appendAudit } from "../../core/audit/write.ts"
import { globalArgs, jsonArg } from "../args.ts"
import { command } from "../command.ts"
import { UsageError } from "../errors.ts"
import { openDb } from "../paths.ts"

export default command({
  meta: { name: "trust", description: "Trust the workspace's policy and plugin files as they are now (by content hash)" },
  examples: [
    "ccode trust                      # the workspace of the current directory",
    "ccode trust ../other-repo",
    "ccode trust tasks/deploy.yaml    # a task file whose policy: section should apply",
    "ccode trust --revoke",
  ],
  args: {
    path: { type: "positional", description: "a directory (its workspace) or files; default: current directory", required: false },
    revoke: { type: "boolean", description: "forget the trust instead" },
    ...jsonArg,
    ...globalArgs,
  },
  async run({ args }) {
    const given = (args._ as string[]).length ? (args._ as string[]) : ["."]
    const files = given.flatMap((p) => filesOf(resolve(p)))
    if (!files.length) {
      const root = findWorkspaceRoot(resolve(given[0]!))
      console.error(`nothing to trust in ${root}: no .ccode/policy.yaml, .ccode/policies/*.yaml or .ccode/plugins/*.ts`)
      if (args.json) console.log("[]")
      return 0
    }
    // what trusting changes: the grants that are ignored now (shown before they start to apply)
    const enabled = args.revoke ? [] : await ignoredGrants(given.map((p) => resolve(p)))
    const store = openDb(args.db as string | undefined)
    try {
      const results = store.tx(() => {
        const out = files.map((file) => {
          const hash = sha256(readFileSync(file, "utf8"))
          const changed = args.revoke ? revokeTrust(store, file) : (recordTrust(store, file, hash), true)
          return { file, sha256: hash, trusted: !args.revoke, changed }
        })
        appendAudit(store, {
          type: "trust", actor: "user", action: args.revoke ? "revoke" : "trust", result: "success",
          reason: `${args.revoke ? "revoked trust in" : "trusted"} ${out.length} file(s)`, data: JSON.stringify(out),
        })
        return out
      })
      if (args.json) console.log(JSON.stringify(results, null, 2))
      else {
        for (const r of results) console.log(`${r.trusted ? "trusted" : r.changed ? "revoked" : "was not trusted"}  ${r.file}${r.trusted ? `  sha256:${r.sha256.slice(0, 12)}` : ""}`)
        if (enabled.length) console.error(["now in effect:", ...enabled.map((g) => `  ${g}`)].join("\n"))
      }
      return 0
    } finally {
      store.close()
    }
  },
})

function filesOf(path: string): string[] {
  let isDir: boolean
  try {
    isDir = statSync(path).isDirectory()
  } catch {
    throw new UsageError(`${path} does not exist`)
  }
  return isDir ? trustableFiles(findWorkspaceRoot(path)) : [path]
}

async function ignoredGrants(paths: string[]): Promise<string[]> {
  const lines: string[] = []
  for (const path of paths) {
    if (!statSync(path).isDirectory()) continue
    const { warnings } = await loadPolicy({ cwd: path, home: homedir(), env: process.env, isTrusted: () => false })
    lines.push(...warnings.filter((w) => w.includes("ignored")).map((w) => w.replace(/ ignored: .*$/, "")))
  }
  return lines
}
