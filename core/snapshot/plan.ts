// What restoring a snapshot changes: files to bring back, remove or put back, directories to
// remove or create, modes to set. Pure: compares two listings. Nested repositories (gitlinks)
// are never touched, nor the directories holding them.
import { canonicalMode, directoriesOf, DIR_MODE, type Entry, type Manifest } from "./listing.ts"

export interface Side {
  files: Map<string, Entry>
  manifest: Manifest
}

export interface RestorePlan {
  /** files the run deleted: brought back */
  restored: string[]
  /** files the run created: removed */
  removed: string[]
  /** files (and directories, with a trailing /) whose content, type or mode changed: put back */
  modified: string[]
  /** paths git writes from the snapshot */
  checkout: string[]
  /** modes to set once the content is back */
  chmod: { path: string; mode: number }[]
  /** directories the run created, deepest first (removed only when empty) */
  removeDirs: string[]
  /** directories the run removed, parents first */
  createDirs: { path: string; mode: number }[]
}

const GITLINK = "160000"
const SYMLINK = "120000"

export function planRestore(snapshot: Side, current: Side): RestorePlan {
  const plan: RestorePlan = { restored: [], removed: [], modified: [], checkout: [], chmod: [], removeDirs: [], createDirs: [] }
  const expectedMode = (path: string, entry: Entry) => snapshot.manifest.files[path] ?? canonicalMode(entry.mode)
  const currentMode = (path: string, entry: Entry) => current.manifest.files[path] ?? canonicalMode(entry.mode)
  const nested = [...current.files, ...snapshot.files].filter(([, e]) => e.mode === GITLINK).map(([p]) => p)
  for (const [path, now] of current.files) {
    if (now.mode === GITLINK) continue
    const then = snapshot.files.get(path)
    if (!then) plan.removed.push(path)
  }
  for (const [path, then] of snapshot.files) {
    if (then.mode === GITLINK) continue
    const now = current.files.get(path)
    const setMode = () => then.mode !== SYMLINK && plan.chmod.push({ path, mode: expectedMode(path, then) })
    if (!now || now.mode === GITLINK) {
      if (now) continue // a nested repository stands there now: left alone
      plan.restored.push(path)
      plan.checkout.push(path)
      setMode()
    } else if (now.oid !== then.oid || now.mode !== then.mode) {
      plan.modified.push(path)
      plan.checkout.push(path)
      setMode()
    } else if (then.mode !== SYMLINK && currentMode(path, now) !== expectedMode(path, then)) {
      plan.modified.push(path)
      setMode()
    }
  }
  const wanted = directoriesOf(snapshot.files.keys(), snapshot.manifest.empty)
  const present = directoriesOf(current.files.keys(), current.manifest.empty)
  const keep = directoriesOf(nested, [])
  for (const path of nested) keep.add(path)
  for (const dir of present) {
    if (!wanted.has(dir) && !keep.has(dir)) plan.removeDirs.push(dir)
  }
  for (const dir of wanted) {
    const mode = snapshot.manifest.dirs[dir] ?? DIR_MODE
    if (!present.has(dir)) plan.createDirs.push({ path: dir, mode })
    else if ((current.manifest.dirs[dir] ?? DIR_MODE) !== mode) {
      plan.modified.push(`${dir}/`)
      plan.chmod.push({ path: dir, mode })
    }
  }
  plan.removeDirs.sort((a, b) => depth(b) - depth(a) || a.localeCompare(b))
  plan.createDirs.sort((a, b) => depth(a.path) - depth(b.path) || a.path.localeCompare(b.path))
  for (const list of [plan.restored, plan.removed, plan.modified, plan.checkout]) list.sort()
  return plan
}

export function isEmptyPlan(plan: RestorePlan): boolean {
  return !plan.restored.length && !plan.removed.length && !plan.modified.length && !plan.removeDirs.length && !plan.createDirs.length
}

function depth(path: string): number {
  return path.split("/").length
}
