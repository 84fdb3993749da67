// A directory tree as a comparable value: every file, symlink and directory with its mode and a
// content hash, so "byte-identical, modes included" is one toEqual.
import { createHash } from "node:crypto"
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs"
import { join } from "node:path"

export type TreeState = Record<string, string>

/** `skip`: top-level names left out (the user's .git is compared separately). */
export function treeState(root: string, skip: string[] = [".git"]): TreeState {
  const state: TreeState = {}
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (!rel && skip.includes(name)) continue
      const path = join(dir, name)
      const key = rel ? `${rel}/${name}` : name
      const stat = lstatSync(path)
      const mode = (stat.mode & 0o7777).toString(8)
      if (stat.isSymbolicLink()) state[key] = `link -> ${readlinkSync(path)}`
      else if (stat.isDirectory()) {
        state[`${key}/`] = `dir ${mode}`
        walk(path, key)
      } else state[key] = `file ${mode} ${createHash("sha256").update(readFileSync(path)).digest("hex")}`
    }
  }
  walk(root, "")
  return state
}

/** Every entry under `root` with its mtime too: proves files were not even rewritten. */
export function treeWithTimes(root: string): TreeState {
  const state = treeState(root, [])
  for (const key of Object.keys(state)) {
    if (state[key]!.startsWith("file")) state[key] += ` ${lstatSync(join(root, key)).mtimeMs}`
  }
  return state
}
