// The git config files a repository's git reads, with the files they include (include.path,
// includeIf.<condition>.path: every condition counts, as it can hold), in the order git reads their
// settings. A file an include names is git configuration for the repository as much as .git/config:
// its core.hooksPath moves the hooks folder, its core.fsmonitor runs on the next git status. Reads a
// few small files, never writes.
import { statSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { parseConfig, type ConfigEntry } from "./gitconfig.ts"
import { realpathExisting } from "./paths.ts"
import { readRegular } from "./readsafe.ts"

// git reads a config of any size: one this large is read whole (a 70 KiB file of comments is ordinary)
const MAX_BYTES = 4 << 20
// git stops at 10 levels of includes
const MAX_DEPTH = 10
const INCLUDE_KEY = /^include(?:if\..*)?\.path$/i

/** The config files git reads for the workspace's repository, system first, the repository's last. */
export function configFiles(workspace: string, home: string, gitDirs: readonly string[] | undefined, env: Record<string, string | undefined>): string[] {
  const xdg = env.XDG_CONFIG_HOME || join(home, ".config")
  return [
    env.GIT_CONFIG_SYSTEM || "/etc/gitconfig",
    join(xdg, "git", "config"),
    env.GIT_CONFIG_GLOBAL || join(home, ".gitconfig"),
    ...(gitDirs?.length ? gitDirs : [join(workspace, ".git")]).flatMap((d) => [join(d, "config"), join(d, "config.worktree")]),
  ]
}

/** The file an include names, as git places it: relative to the including file, `~/` from `home`;
 *  undefined for a form ccode does not place (`~user/`, `%(prefix)/`). */
export function includeTarget(file: string, path: string, home: string | undefined): string | undefined {
  if (path.startsWith("~/")) return home === undefined ? undefined : `${home}${path.slice(1)}`
  if (path.startsWith("%(prefix)/") || path.startsWith("~")) return undefined
  return resolve(dirname(file), path)
}

/** One file's entries in the order git applies them, an include's entries in its place (only files
 *  that name an include or core.hooksPath are parsed: what the callers look for). */
export function entriesWithIncludes(file: string, home: string, seen: Set<string> = new Set(), depth = 0): ConfigEntry[] {
  const out: ConfigEntry[] = []
  if (seen.has(file) || depth > MAX_DEPTH) return out
  seen.add(file)
  const own = ownEntries(file)
  for (const e of typeof own === "string" ? [] : own) {
    out.push(e)
    if (!INCLUDE_KEY.test(e.key) || !e.value) continue
    const target = includeTarget(file, e.value, home)
    if (target !== undefined) out.push(...entriesWithIncludes(target, home, seen, depth + 1))
  }
  return out
}

/** The files the repository's configs include (real paths, there or not yet: writing one plants
 *  settings), each with the file that includes it. */
export function includedConfigFiles(workspace: string, home: string, gitDirs: readonly string[] | undefined, env: Record<string, string | undefined>, unreadable: string[] = []): { file: string; by: string }[] {
  const out: { file: string; by: string }[] = []
  const seen = new Set<string>()
  const walk = (file: string, depth: number): void => {
    if (seen.has(file) || depth > MAX_DEPTH) return
    seen.add(file)
    const own = ownEntries(file)
    if (typeof own === "string") {
      unreadable.push(`the git config ${file} ${own}`)
      return
    }
    for (const e of own) {
      // `~user/x`, `%(prefix)/x`: a place ccode does not resolve, so what it names is not known
      if (e.key === "core.hookspath" && e.value && /^(~(?!\/)|%\(prefix\))/.test(e.value)) unreadable.push(`the git config ${file} sets core.hooksPath = ${e.value}, a place ccode does not resolve`)
      if (!INCLUDE_KEY.test(e.key) || !e.value) continue
      const target = includeTarget(file, e.value, home)
      if (target === undefined) {
        unreadable.push(`the git config ${file} includes ${e.value}, a place ccode does not resolve`)
        continue
      }
      out.push({ file: realpathExisting(target), by: file })
      walk(target, depth + 1)
    }
  }
  for (const f of configFiles(workspace, home, gitDirs, env)) walk(f, 0)
  return out
}

// a file's own entries (none when it is not there); why not, when it is there but cannot be read whole
function ownEntries(file: string): ConfigEntry[] | string {
  let st
  try {
    st = statSync(file, { throwIfNoEntry: false })
  } catch {
    return "cannot be read"
  }
  if (!st) return []
  if (!st.isFile()) return st.isDirectory() ? [] : "is not a plain file"
  if (st.size > MAX_BYTES) return `is larger than ${MAX_BYTES >> 20} MiB`
  let text: string
  try {
    text = readRegular(file, MAX_BYTES)
  } catch {
    return "cannot be read"
  }
  // a fast refusal: most configs name neither
  if (!/hookspath|include/i.test(text)) return []
  const entries = parseConfig(text)
  // git refuses a config it cannot parse (and runs nothing): its entries are not needed
  return typeof entries === "string" ? [] : entries
}
