// ccode trust [DIR|FILE...] [--revoke]: record (or forget) the content hash of a workspace's policy and
// plugin files, or of a task and the files it names, for that workspace, so their grants apply and
// their plugins load. Editing a file makes it untrusted again; trust in one workspace is not trust in another.
import { readFileSync, realpathSync, statSync } from "node:fs"
import { homedir } from "node:os"
import { dirname, join, resolve, sep } from "node:path"
import { pluginFilesIn } from "../../core/plugins/discover.ts"
import { loadTask } from "../../core/task/load.ts"
import { sha256 } from "../../core/base/hash.ts"
import { findWorkspaceRoot, loadPolicy, trustableFiles } from "../../core/policy/index.ts"
import { globalArgs, jsonArg } from "../args.ts"
import { command } from "../command.ts"
import { UsageError } from "../errors.ts"
import { openRunDb } from "../paths.ts"

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
    const files = await withPluginInputs(given.flatMap((p) => filesOf(resolve(p))))
    if (!files.length) {
      const root = findWorkspaceRoot(resolve(given[0]!))
      console.error(`nothing to trust in ${root}: no .ccode/policy.yaml, .ccode/policies/*.yaml or .ccode/plugins/*.ts`)
      if (args.json) console.log("[]")
      return 0
    }
    // what trusting changes: the grants that are ignored now (shown before they start to apply)
    const enabled = args.revoke ? [] : await ignoredGrants(given.map((p) => resolve(p)))
    const { store } = await openRunDb(args.db as string | undefined)
    try {
      const hashed = files.map(({ file, workspace }) => ({ file, workspace, sha256: sha256(readFileSync(file, "utf8")) }))
      const outcome = (changed: boolean[]) => hashed.map((f, i) => ({ ...f, trusted: !args.revoke, changed: changed[i]! }))
      const changed = await store.setTrust(hashed.map((f) => ({ workspace: f.workspace, path: f.file, hash: args.revoke ? null : f.sha256 })), (changed) => ({
        type: "trust", actor: "user", action: args.revoke ? "revoke" : "trust", result: "success",
        reason: `${args.revoke ? "revoked trust in" : "trusted"} ${hashed.length} file(s)`, data: JSON.stringify(outcome(changed)),
      }))
      const results = outcome(changed)
      if (args.json) console.log(JSON.stringify(results, null, 2))
      else {
        for (const r of results) console.log(`${r.trusted ? "trusted" : r.changed ? "revoked" : "was not trusted"}  ${r.file}${r.trusted ? `  sha256:${r.sha256.slice(0, 12)}` : ""}`)
        if (enabled.length) console.error(["now in effect:", ...enabled.map((g) => `  ${g}`)].join("\n"))
      }
      return 0
    } finally {
      await store.close()
    }
  },
})

interface TrustTarget {
  /** the file (real path) */
  file: string
  /** the workspace root it is trusted for */
  workspace: string
}

/**
 * A folder: its workspace's policy and plugin files. A task file (.yaml outside .ccode/): the task,
 * the policy files and plugins it names, all for the workspace the task runs in. Any other file:
 * itself, for the workspace it sits in.
 */
function filesOf(path: string): TrustTarget[] {
  let isDir: boolean
  try {
    isDir = statSync(path).isDirectory()
  } catch {
    throw new UsageError(`${path} does not exist`)
  }
  if (isDir) {
    const workspace = findWorkspaceRoot(path)
    return trustableFiles(workspace).map((file) => ({ file: realpathSync(file), workspace }))
  }
  const file = realpathSync(path)
  const workspace = findWorkspaceRoot(dirname(file))
  if (!/\.ya?ml$/.test(file) || file.startsWith(join(workspace, ".ccode") + sep)) return [{ file, workspace }]
  return taskFiles(file)
}

// A plugin runs with everything its bundle is built from (relative imports, packages beside it):
// each of those files is trusted as it is now, so editing any of them makes the plugin untrusted.
async function withPluginInputs(targets: TrustTarget[]): Promise<TrustTarget[]> {
  const out: TrustTarget[] = []
  const seen = new Set<string>()
  const add = (t: TrustTarget) => {
    const key = `${t.workspace}\0${t.file}`
    if (!seen.has(key)) (seen.add(key), out.push(t))
  }
  for (const target of targets) {
    add(target)
    if (!/\.[mc]?[jt]sx?$/.test(target.file)) continue
    const { pluginInputs } = await import("../../core/plugins/bundle.ts")
    try {
      // the import graph only: trusting runs none of the plugin's code
      for (const input of await pluginInputs(target.file)) add({ file: input.path, workspace: target.workspace })
    } catch (error) {
      console.error(`warning: ${target.file} cannot be bundled (${(error as Error).message}); only the file itself is trusted`)
    }
  }
  return out
}

function taskFiles(file: string): TrustTarget[] {
  const task = loadTask(file)
  const workspace = findWorkspaceRoot(task.workdir)
  const named: string[] = []
  const policy = task.spec.policy
  if (typeof policy === "string" || Array.isArray(policy)) named.push(...[policy].flat().map((p) => resolve(task.dir, p)))
  for (const entry of task.spec.plugins ?? []) {
    const target = resolve(task.dir, entry)
    const isDir = statSync(target, { throwIfNoEntry: false })?.isDirectory()
    named.push(...(isDir ? pluginFilesIn(target) : [target]))
  }
  for (const path of named) if (!statSync(path, { throwIfNoEntry: false })?.isFile()) throw new UsageError(`${path}, named by ${file}, does not exist`)
  return [file, ...named].map((path) => ({ file: realpathSync(path), workspace }))
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
