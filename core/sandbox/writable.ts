// Which of the policy's `sandbox.writable` paths a call may write, resolved again at every call but
// never through a symlink a step could have planted: an entry inside a writable root (the workspace,
// the run's temp dir, another writable entry) is granted only while no link stands between that root
// and the entry itself (`writable: [.git]` with `.git -> /root` planted by the previous step grants
// nothing), and every entry only while it leads where it led when the run's sandbox was set up (its
// nearest existing folder then, for one that did not exist yet). I/O: lstat and realpath of a few paths.
import { lstatSync, realpathSync } from "node:fs"
import { basename, dirname, join, relative } from "node:path"
import { isInside } from "../base/paths.ts"

/** A writable entry (absolute, expanded) and the real path it must keep leading to. */
export interface WritablePin {
  path: string
  /** undefined: it led through a file or a dangling link at the start; never granted */
  expected: string | undefined
}

/** The real path each entry leads to now (for one missing: its nearest existing folder's real path + the rest). */
export function pinWritable(paths: readonly string[]): WritablePin[] {
  return paths.map((path) => ({ path, expected: expectedOf(path) }))
}

/**
 * The real paths of the entries to bind writable for this call: those that exist, lead where they were
 * pinned, and have no link on the way from a writable root holding them (`roots` are real paths; the
 * other entries count as roots, at the real paths they were pinned to).
 */
export function grantedWritable(pins: readonly WritablePin[], roots: readonly string[]): string[] {
  // the other entries are writable roots too: `writable: [~/data, ~/data/cache]` with cache re-linked
  // inside the writable ~/data (and a resume pinning anew) must not follow the link
  const holders = [...roots.map((r) => ({ path: r, real: r })), ...pins.flatMap((p) => (p.expected ? [{ path: p.path, real: p.expected }] : []))]
  const out: string[] = []
  for (const pin of pins) {
    let real: string
    try {
      if (!lstatSync(pin.path, { throwIfNoEntry: false })) continue
      real = realpathSync(pin.path)
    } catch {
      continue
    }
    if (real !== pin.expected) continue
    // inside the workspace the path is only a name: what stands at it now is the step's to choose
    if (holders.some((h) => h.path !== pin.path && isInside(h.path, pin.path) && real !== join(h.real, relative(h.path, pin.path)))) continue
    out.push(real)
  }
  return out
}

function expectedOf(path: string): string | undefined {
  const rest: string[] = []
  for (let at = path; ; at = dirname(at)) {
    try {
      if (lstatSync(at, { throwIfNoEntry: false })) return rest.length ? join(realpathSync(at), ...rest.reverse()) : realpathSync(at)
    } catch {
      return undefined
    }
    if (at === dirname(at)) return undefined
    rest.push(basename(at))
  }
}
