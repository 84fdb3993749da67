// Where the user's later host commands pick up code, beyond the fixed read-only list: every folder on
// ccode's own PATH (~/.cargo/bin is searched before /usr/bin: a `git` planted there runs at the next
// `git status`), the programs' start-up files the shell analysis knows (shell/startup.ts: python's
// usercustomize and .pth files, ~/.codex/config.toml, ...), the hooks folder core.hooksPath names
// (husky's .husky/_) and the files the repository's git config includes. Kept read-only when they lie in
// a writable root (a home that is the workspace); one missing is kept from being made (unmade.ts).
// I/O per call: the git configs (a few small files) and one readdir per start-up place with a `*`.
import { readdirSync } from "node:fs"
import { join } from "node:path"
import { isInside } from "../base/paths.ts"
import { hooksDirs } from "../base/hookspath.ts"
import { includedConfigFiles } from "../base/gitincludes.ts"
import { STARTUP_PLACES } from "../shell/startup.ts"

/** The paths (absolute, there or not) that later host commands run code from, for this workspace and home. */
export function hostCodePaths(workspace: string, home: string, env: Record<string, string | undefined>): string[] {
  const path = (env.PATH ?? "").split(":").filter((d) => d.startsWith("/"))
  const git = [...hooksDirs(workspace, home, undefined, env), ...includedConfigFiles(workspace, home, undefined, env).map((f) => f.file)]
  // a PATH folder holding the workspace (the workspace itself on PATH) is not kept from the command
  return [...new Set([...path, ...startupPaths(home), ...git])].filter((p) => !isInside(p, workspace))
}

// each start-up place under `home`; one with a `*` is looked up below its last fixed folder (a file
// pattern, `*.pth`, stands for its whole folder), and that folder itself when it is missing (made later, it
// could hold anything)
function startupPaths(home: string): string[] {
  if (!home || home === "/") return []
  return STARTUP_PLACES.flatMap((p) => expand(home, p.rel.split("/")))
}

function expand(dir: string, parts: readonly string[]): string[] {
  const at = parts.findIndex((p) => p.includes("*"))
  if (at < 0) return [join(dir, ...parts)]
  const fixed = join(dir, ...parts.slice(0, at))
  if (at === parts.length - 1) return [fixed]
  let names: string[]
  try {
    names = readdirSync(fixed)
  } catch {
    return [fixed]
  }
  const re = new RegExp(`^${parts[at]!.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`, "i")
  return names.filter((n) => re.test(n)).flatMap((n) => expand(join(fixed, n), parts.slice(at + 1)))
}
