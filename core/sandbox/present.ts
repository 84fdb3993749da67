// Which of a call's sandbox paths exist, resolved through symlinks: asked before every sandboxed call,
// for about 2,000 paths on a machine with ten home folders (every credential location in each), nearly
// all missing. A missing path is remembered with the nearest folder above it that exists (its anchor):
// nothing can appear below a folder without an entry being made in it, which moves the folder's ctime,
// so while the anchor is the same folder with the same ctime the path is still missing and is not asked
// again (a link on the way, /bin -> usr/bin, is followed: the folder it leads to is the one that gains
// the entry). Never trusted where that does not hold: an anchor that leads to no folder, one changed
// within the last 2 s (a change in the same clock tick leaves the ctime as it was), a clock that went back.
import { lstatSync, realpathSync, statSync } from "node:fs"
import { dirname } from "node:path"

/** An anchor must have been still this long before a path below it is remembered as missing. */
const STILL_MS = 2000
const MAX_REMEMBERED = 50_000

interface Missing {
  anchor: string
  /** dev, inode and ctime of the anchor when the path was found missing */
  id: string
}

const missing = new Map<string, Missing>()
let lastNow = 0
/** bumped whenever `missing` is emptied: a list's memo from before says nothing */
let generation = 0

interface ListMemo {
  generation: number
  /** the list's paths not remembered missing: asked at every call */
  asked: string[]
  /** every anchor a remembered path of the list relies on, with its id then */
  anchors: Map<string, string>
}
const lists = new WeakMap<readonly string[], ListMemo>()

/**
 * existingPaths for a list the caller keeps and asks about again (the same array): while every folder
 * its remembered paths rely on is unchanged, only its other paths are asked, without going through the
 * 2,000 remembered ones one by one.
 */
export function existingPathsOf(list: readonly string[]): string[] {
  const memo = lists.get(list)
  if (memo && memo.generation === generation && Date.now() >= lastNow) {
    let same = true
    for (const [anchor, id] of memo.anchors) {
      if (idOrUndefined(anchor) !== id) {
        same = false
        break
      }
    }
    if (same) return existingPaths(memo.asked)
  }
  const out = existingPaths(list)
  const next: ListMemo = { generation, asked: [], anchors: new Map() }
  for (const path of list) {
    const known = missing.get(path)
    if (!known) {
      next.asked.push(path)
      continue
    }
    const recorded = next.anchors.get(known.anchor)
    // remembered against two states of one folder (it changed while the list was asked): no memo
    if (recorded !== undefined && recorded !== known.id) {
      lists.delete(list)
      return out
    }
    next.anchors.set(known.anchor, known.id)
  }
  lists.set(list, next)
  return out
}

/** The real paths of those of `paths` that exist now, in order (a dangling link or a path through a file is left out). */
export function existingPaths(paths: readonly string[]): string[] {
  return lookPaths(paths).filter((p): p is string => typeof p === "string")
}

/**
 * What stands at each of `paths` now: its real path; null for an entry that leads nowhere (a dangling
 * link, one that cannot be resolved); undefined for no entry at all (a path through a file too). A path
 * remembered missing costs no lstat while the folder it hangs from is unchanged.
 */
export function lookPaths(paths: readonly string[]): (string | null | undefined)[] {
  const now = Date.now()
  // the clock went back: a ctime compared with it proves nothing
  if (now < lastNow || missing.size > MAX_REMEMBERED) {
    missing.clear()
    generation++
  }
  lastNow = now
  const anchors = new Map<string, string | undefined>()
  const anchorNow = (anchor: string) => {
    if (!anchors.has(anchor)) anchors.set(anchor, idOrUndefined(anchor))
    return anchors.get(anchor)
  }
  return paths.map((path) => {
    const known = missing.get(path)
    if (known) {
      if (anchorNow(known.anchor) === known.id) return undefined
      missing.delete(path)
    }
    let entry
    try {
      entry = lstatSync(path, { throwIfNoEntry: false })
    } catch {
      // a path through a file: nothing there, asked again next time
      return undefined
    }
    if (entry) {
      try {
        return realpathSync(path)
      } catch {
        // a dangling link: nothing to protect or to open, asked again next time
        return null
      }
    }
    const anchor = anchorOf(path, now)
    if (anchor) missing.set(path, anchor)
    return undefined
  })
}

/** Forget every path remembered as missing (tests). */
export function forgetMissing(): void {
  missing.clear()
  generation++
}

function idOrUndefined(folder: string): string | undefined {
  try {
    return folderId(folder)?.id ?? undefined
  } catch {
    // unreadable now: whatever was remembered below it is asked again
    return undefined
  }
}

/** The nearest existing folder above a missing path, when it leads to a folder that has been still since before `now` - STILL_MS. */
function anchorOf(path: string, now: number): Missing | undefined {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    let found: ReturnType<typeof folderId>
    try {
      found = folderId(dir)
    } catch {
      return undefined
    }
    if (found === null) {
      if (dir === "/") return undefined
      continue
    }
    if (!found || found.ctimeMs + STILL_MS >= now) return undefined
    return { anchor: dir, id: found.id }
  }
}

/**
 * The identity of the folder a path leads to, links followed: the anchor is a folder a missing path is
 * looked up through, never its last component, so what matters is the folder the lookup reaches (a link
 * retargeted reaches another one). Null when nothing is there, undefined when it is no folder (a file,
 * a dangling link).
 */
function folderId(path: string): { id: string; ctimeMs: number } | null | undefined {
  if (!lstatSync(path, { throwIfNoEntry: false })) return null
  const stat = statSync(path, { bigint: true, throwIfNoEntry: false })
  if (!stat?.isDirectory()) return undefined
  return { id: `${stat.dev}:${stat.ino}:${stat.ctimeNs}`, ctimeMs: Number(stat.ctimeNs / 1_000_000n) }
}
