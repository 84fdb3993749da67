// The files a recursive read really opens below a folder, looked up on disk for the ones a path rule
// names by their name alone (`.env*`, `*.pem`, `id_rsa*` at any depth, a credential file kept in the
// workspace): `grep -rn KEY .` prints the lines of the workspace's `.env` as `cat .env` would, and no
// path in the command says so. The walk is bounded like every listing (core/policy/globdisk.ts): past
// the bound the answer is incomplete and the caller fails closed. Side effects: readdir.
import { Budget, ENTRY_BOUND } from "./globdisk.ts"

export interface TreeFiles {
  /** the files below the root that `judged` picked */
  files: string[]
  /** false: more entries than the bound, so not every file was looked at */
  complete: boolean
}

/**
 * Files below `root` (a real path) that `judged` picks. Links met on the way are neither followed nor
 * returned (grep -r, rg and ag read a link only when it is named; walks that follow links are judged
 * elsewhere); `hidden: false` skips names starting with a dot and what is below them, as rg and ag do
 * by default.
 */
export function treeFiles(root: string, judged: (path: string) => boolean, opts: { hidden: boolean; bound?: number }): TreeFiles {
  const budget = new Budget(opts.bound ?? ENTRY_BOUND)
  const files: string[] = []
  const queue = [root]
  for (let i = 0; i < queue.length; i++) {
    const list = budget.entries(queue[i]!)
    if (!list) return { files, complete: false }
    for (const e of list) {
      if (!opts.hidden && e.name.charCodeAt(0) === 46) continue
      const at = `${queue[i] === "/" ? "" : queue[i]}/${e.name}`
      if (e.isDirectory()) queue.push(at)
      else if (!e.isSymbolicLink() && judged(at)) files.push(at)
    }
  }
  return { files, complete: true }
}
