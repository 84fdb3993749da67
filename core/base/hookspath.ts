// The hooks folder the workspace's repository really uses when its config moves it: core.hooksPath of
// the repository's config (.git/config, config.worktree), the user's (~/.gitconfig, the XDG one), the
// system's, or the environment's GIT_CONFIG_KEY_n. husky sets `core.hooksPath = .husky/_` in most JS
// repositories; a file written there runs at the next checkout or commit exactly as one in .git/hooks
// would. Reads a few small files, never writes.
import { statSync } from "node:fs"
import { readRegular } from "./readsafe.ts"
import { join, resolve } from "node:path"
import { realpathExisting } from "./paths.ts"
import { parseConfig } from "./gitconfig.ts"

const MAX_BYTES = 64 * 1024

/**
 * The folders core.hooksPath names for the workspace's repository (real paths), and for husky's `X/_`
 * its parent X too (its hooks run X/<hook>). `gitDirs`: where a `.git` file points (else `.git` itself).
 * The last setting wins as git reads them: system, global, then the repository's own.
 */
export function hooksDirs(workspace: string, home: string, gitDirs: readonly string[] | undefined, env: Record<string, string | undefined> = {}): string[] {
  const xdg = env.XDG_CONFIG_HOME || join(home, ".config")
  const files = [
    env.GIT_CONFIG_SYSTEM || "/etc/gitconfig",
    join(xdg, "git", "config"),
    env.GIT_CONFIG_GLOBAL || join(home, ".gitconfig"),
    ...(gitDirs?.length ? gitDirs : [join(workspace, ".git")]).flatMap((d) => [join(d, "config"), join(d, "config.worktree")]),
  ]
  let value: string | undefined
  for (const f of files) value = hooksPathIn(f) ?? value
  // GIT_CONFIG_COUNT/GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n in the environment git runs with come last
  const count = Number(env.GIT_CONFIG_COUNT ?? 0)
  for (let i = 0; i < Math.min(count, 100); i++) if (env[`GIT_CONFIG_KEY_${i}`]?.toLowerCase() === "core.hookspath") value = env[`GIT_CONFIG_VALUE_${i}`] || value
  if (!value) return []
  // git expands `~/` in a path setting; a relative one is taken from the top of the work tree
  const dir = realpathExisting(resolve(workspace, value.startsWith("~/") ? join(home, value.slice(2)) : value))
  return /\/_\/?$/.test(value) ? [dir, realpathExisting(resolve(dir, ".."))] : [dir]
}

function hooksPathIn(file: string): string | undefined {
  const st = statSync(file, { throwIfNoEntry: false })
  if (!st?.isFile() || st.size > MAX_BYTES) return undefined
  let text: string
  try {
    text = readRegular(file)
  } catch {
    return undefined
  }
  // a fast refusal: most configs never name it
  if (!/hookspath/i.test(text)) return undefined
  const entries = parseConfig(text)
  if (typeof entries === "string") return undefined
  let found: string | undefined
  for (const e of entries) if (e.key === "core.hookspath" && e.value) found = e.value
  return found
}
