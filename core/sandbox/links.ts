// Read-only paths reached through a symlink (`.claude -> .github/claude`, a dotfiles manager's
// `~/.bashrc -> dotfiles/bashrc`, `.git/hooks -> ../.githooks`): bwrap mounts the link's target
// read-only, but the link itself sits in a writable folder, so a step could remove it and put a folder
// or file of its own at its name (or retarget a later link of the chain). The same for hidden credential
// folders (`~/.kube -> dotfiles/kube` in a home that is the workspace: a kubeconfig runs programs). Each such link is noted before a call and checked after it: one
// that is gone or changed is put back, and what stood at its name is moved aside for review.
// I/O: lstat, readlink, rename, symlink (below the writable root, without following links).
import { lstatSync, readlinkSync, renameSync, rmSync, symlinkSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { OutsideRoot, withParent } from "../base/beneath.ts"
import { isInside } from "../base/paths.ts"
import { randomSuffix } from "./planted.ts"

/** A symlink on the way from a writable root to a read-only path, and where it led. */
export interface WatchedLink {
  /** the writable root (a real path) the link is below */
  root: string
  /** the link's own path (its folders are real folders of the root) */
  path: string
  target: string
}

/**
 * Every symlink on the resolution path of each path that sits below a writable root: the chain is
 * followed link by link (`.git/hooks -> ../.githooks`, `.githooks -> tools/hooks`; `~/.bashrc ->
 * dotfiles/bashrc` with the home read-only and `dotfiles/bashrc -> shell/bashrc` in the workspace), so
 * retargeting any link of it, not only the first, is seen. A link outside every writable root is followed
 * but not noted: no step can change it. One lstat per path component, shared by all paths of the call.
 */
export function linksOnTheWay(paths: readonly string[], roots: readonly string[]): WatchedLink[] {
  const out = new Map<string, WatchedLink>()
  // innermost first: the root a path is below is the first that holds it
  const inner = [...roots].sort((a, b) => b.length - a.length)
  const looked = new Map<string, Entry>()
  const look = (at: string): Entry => {
    let entry = looked.get(at)
    if (!entry) looked.set(at, (entry = entryAt(at)))
    return entry
  }
  for (const path of paths) follow(path, inner, look, out)
  return [...out.values()]
}

// what stands at a path: nothing (or unreadable), a folder, a link with its target, or something else
type Entry = { kind: "none" | "dir" | "other" } | { kind: "link"; target: string }

function entryAt(at: string): Entry {
  try {
    const st = lstatSync(at, { throwIfNoEntry: false })
    if (!st) return { kind: "none" }
    if (st.isSymbolicLink()) return { kind: "link", target: readlinkSync(at) }
    return { kind: st.isDirectory() ? "dir" : "other" }
  } catch {
    return { kind: "none" }
  }
}

// the kernel's own limit on links followed in one lookup
const MAX_HOPS = 40

function follow(path: string, inner: readonly string[], look: (at: string) => Entry, out: Map<string, WatchedLink>): void {
  let rest = path
  for (let hops = 0; hops <= MAX_HOPS; hops++) {
    // from the innermost writable root holding it (a real folder), else from /
    const root = inner.find((r) => r !== rest && isInside(r, rest))
    const names = relative(root ?? "/", rest).split("/").filter(Boolean)
    let at = root === undefined || root === "/" ? "" : root
    let next: string | undefined
    for (let i = 0; i < names.length; i++) {
      at = `${at}/${names[i]}`
      const entry = look(at)
      if (entry.kind === "link") {
        if (root && !out.has(at)) out.set(at, { root, path: at, target: entry.target })
        // every folder before `at` is a real one: its target resolves lexically from there
        next = resolve(dirname(at), entry.target, ...names.slice(i + 1))
        break
      }
      if (entry.kind !== "dir") return
    }
    if (next === undefined) return
    rest = next
  }
}

/** Of the links noted before a call, those that are gone or lead elsewhere now. */
export function changedLinks(links: Iterable<WatchedLink>): WatchedLink[] {
  const out: WatchedLink[] = []
  for (const link of links) {
    try {
      const st = lstatSync(link.path, { throwIfNoEntry: false })
      if (st?.isSymbolicLink() && readlinkSync(link.path) === link.target) continue
    } catch {
      // unreadable now: changed
    }
    out.push(link)
  }
  return out
}

/**
 * Put a changed link back: whatever stands at its name now is renamed `<name>.blocked-<stamp>` and the
 * link is made again. Returns the aside name ("" when nothing stood there); throws OutsideRoot when a
 * folder above it is no longer a real folder of the root (then nothing is touched).
 */
export function putBack(link: WatchedLink, stamp: string): string {
  const rel = relative(link.root, link.path)
  return withParent(link.root, rel, false, (dir, name) => {
    const there = lstatSync(dir.at(name), { throwIfNoEntry: false })
    const aside = there ? moveAside(dir, name, stamp) : ""
    symlinkSync(link.target, dir.at(name))
    return aside && (aside.endsWith(" (deleted)") ? `${rel} (deleted: it could not be moved aside)` : join(dirname(rel), aside))
  }) ?? missingFolder(rel)
}

// `<name>.blocked-<stamp>-<random>`: a step cannot pre-create the name (a full folder there would make
// the rename fail and leave its replacement in place); when no name can be taken it is deleted instead
function moveAside(dir: { at(name: string): string }, name: string, stamp: string): string {
  for (let i = 0; i < 4; i++) {
    const aside = `${name}.blocked-${stamp}-${randomSuffix()}`
    if (lstatSync(dir.at(aside), { throwIfNoEntry: false })) continue
    try {
      renameSync(dir.at(name), dir.at(aside))
      return aside
    } catch {
      // taken meanwhile: another name
    }
  }
  rmSync(dir.at(name), { recursive: true, force: true })
  return `${name} (deleted)`
}

function missingFolder(rel: string): never {
  throw new OutsideRoot(`the folder holding ${rel} is gone`)
}
