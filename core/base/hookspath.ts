// The hooks folder the workspace's repository really uses when its config moves it: core.hooksPath of
// the repository's config (.git/config, config.worktree), the user's (~/.gitconfig, the XDG one), the
// system's, or the environment's GIT_CONFIG_KEY_n. husky sets `core.hooksPath = .husky/_` in most JS
// repositories; a file written there runs at the next checkout or commit exactly as one in .git/hooks
// would. The files those configs include count in their place. Reads a few small files, never writes.
import { join, resolve } from "node:path"
import { realpathExisting } from "./paths.ts"
import { configFiles, entriesWithIncludes } from "./gitincludes.ts"

/**
 * The folders core.hooksPath names for the workspace's repository (real paths), and for husky's `X/_`
 * its parent X too (its hooks run X/<hook>). `gitDirs`: where a `.git` file points (else `.git` itself).
 * The last setting wins as git reads them: system, global, then the repository's own.
 */
export function hooksDirs(workspace: string, home: string, gitDirs: readonly string[] | undefined, env: Record<string, string | undefined> = {}): string[] {
  let value: string | undefined
  // the files they include (include.path = ../.gitconfig holding core.hooksPath = .githooks) in their place
  for (const f of configFiles(workspace, home, gitDirs, env)) for (const e of entriesWithIncludes(f, home)) if (e.key === "core.hookspath" && e.value) value = e.value
  // GIT_CONFIG_COUNT/GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n in the environment git runs with come last
  const count = Number(env.GIT_CONFIG_COUNT ?? 0)
  for (let i = 0; i < Math.min(count, 100); i++) if (env[`GIT_CONFIG_KEY_${i}`]?.toLowerCase() === "core.hookspath") value = env[`GIT_CONFIG_VALUE_${i}`] || value
  if (!value) return []
  // git expands `~/` in a path setting; a relative one is taken from the top of the work tree
  const dir = realpathExisting(resolve(workspace, value.startsWith("~/") ? join(home, value.slice(2)) : value))
  return /\/_\/?$/.test(value) ? [dir, realpathExisting(resolve(dir, ".."))] : [dir]
}
