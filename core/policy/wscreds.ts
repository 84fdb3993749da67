// The workspace's own credential files (.env, .env.local, keys...): the files below a folder whose names
// the path rules judge. node_modules and .git are not walked (a package's or git's files are no one's
// credentials). Bounded: past the bound the list is incomplete and the caller fails closed. Side effect: readdir.
import { readdirSync, type Dirent } from "node:fs"

/** How many entries are looked at. */
export const WORKSPACE_ENTRIES = 50_000

/** The judged files below `root` (a real path); `complete` is false when the bound was hit. */
export function workspaceCredentialFiles(root: string, judged: (path: string) => boolean, bound = WORKSPACE_ENTRIES): { files: string[]; complete: boolean } {
  const files: string[] = []
  const queue = [root]
  let seen = 0
  for (let i = 0; i < queue.length; i++) {
    let entries: Dirent[]
    try {
      entries = readdirSync(queue[i]!, { withFileTypes: true })
    } catch {
      continue
    }
    for (const e of entries) {
      if (++seen > bound) return { files, complete: false }
      const p = `${queue[i] === "/" ? "" : queue[i]}/${e.name}`
      if (e.isDirectory()) {
        if (e.name !== "node_modules" && e.name !== ".git") queue.push(p)
      } else if (e.isFile() && judged(p)) files.push(p)
    }
  }
  return { files, complete: true }
}
