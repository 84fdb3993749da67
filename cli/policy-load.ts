// The effective policy of a directory for the CLI (policy check/show, plugins, hook). Imports nothing
// of citty or the commands: the hooks' start-up path uses it.
import { existsSync } from "node:fs"
import { homedir } from "node:os"
import { join } from "node:path"
import { findWorkspaceRoot, loadPolicy, userPolicyFile, workspacePolicyFiles } from "../core/policy/index.ts"
import { workspaceLayerRoots } from "../core/policy/workspace.ts"
import type { IsTrusted, LoadedPolicy, PolicyFlags } from "../core/policy/index.ts"
import type { SqliteStore as Store } from "../core/store/sqlite.ts"
import { ccodeHome } from "./home.ts"

export interface CliLoad {
  cwd: string
  flags?: PolicyFlags
  trust?: boolean
  db?: string
  /** an already open store to check trust with (the hook writes its audit row to it too) */
  store?: Store
  /** trust from elsewhere (a PostgreSQL store the caller holds): asked only when there are policy files */
  trustIn?: (workspace: string) => Promise<IsTrusted>
}

/**
 * The effective policy of `cwd` for the CLI (check, show, hook). The trust database is opened only
 * when there are workspace policy files to check, so a plain directory never loads the store.
 */
export async function loadForCli(opts: CliLoad): Promise<LoadedPolicy> {
  const workspace = findWorkspaceRoot(opts.cwd)
  const env = process.env
  const home = homedir()
  // a nested .ccode/ does not hide the repository's policy files (they are layers too)
  const repoFiles = [workspace, ...workspaceLayerRoots(opts.cwd)].some((root) => workspacePolicyFiles(root).length > 0)
  const cacheDir = repoFiles || existsSync(userPolicyFile(env, home)) ? join(ccodeHome(env), "cache") : undefined
  const load = (isTrusted: IsTrusted) => loadPolicy({ cwd: opts.cwd, home, env, isTrusted, trustAll: opts.trust, flags: opts.flags, cacheDir, workspace })
  if (!repoFiles || opts.trust) return await load(() => false)
  if (opts.trustIn) return await load(await opts.trustIn(workspace))
  const { trustIn } = await import("../core/store/trust.ts")
  if (opts.store) return await load(trustIn(opts.store, workspace))
  // the store --db / CCODE_DB name, opened for the check only
  const trust = await (await import("./trust-open.ts")).openTrust(opts.db)
  try {
    return await load(trust.in(workspace))
  } finally {
    trust.close()
  }
}
