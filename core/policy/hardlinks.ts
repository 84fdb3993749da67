// A hard link is another name of the same file: `notes.txt` made with `ln ~/.netrc notes.txt` (by a prior
// session, a host tool, a restored backup) prints the credential when read, and no path rule meets its
// name. A read file with more than one link is compared (device and inode) with the credential files on
// this machine: every home's credential locations (a folder's files up to a bound each), the files settings
// name, the machine's own secrets. Side effects: stat, list the credential folders (once a decision).
import { lstatSync, readdirSync, type Stats } from "node:fs"
import { CREDENTIAL_PATHS, BUILD_CREDENTIAL_PATHS } from "../base/secrets.ts"
import { existingHomes } from "../base/homes.ts"

/** How many entries one credential folder may add (a browser profile holds thousands: past it, the rest of
 *  that folder is not looked at). */
const PER_LOCATION = 400

/** The credential file `st` (a read file's stat) is another name of, or undefined. `table`: the decision's
 *  inode table, built on the first file with more than one link (never kept across decisions: a link made
 *  a moment ago counts). `named`: more credential files (those settings name). */
export function hardLinkedCredential(st: Stats, home: string, named: () => Iterable<string>, table: { inodes?: Map<string, string> }): string | undefined {
  if (!st.isFile() || st.nlink < 2) return undefined
  table.inodes ??= inodes(home, named)
  return table.inodes.get(`${st.dev}:${st.ino}`)
}

function inodes(home: string, named: () => Iterable<string>): Map<string, string> {
  const out = new Map<string, string>()
  const add = (path: string, st: Stats) => {
    if (st.isFile() && st.nlink > 1) out.set(`${st.dev}:${st.ino}`, path)
  }
  // the caller's home first, then the other people's and services' (ccode run as root can link theirs; the
  // system accounts' homes, /bin, /usr/sbin, /var/mail..., hold none)
  const homes = [home, ...existingHomes().filter((h) => h !== home && /^\/(?:home|Users|root|var\/lib|srv)(?:\/|$)/.test(h))]
  const locations = [...CREDENTIAL_PATHS, ...BUILD_CREDENTIAL_PATHS]
  const paths = [...locations.filter((l) => !l.startsWith("~/")), ...homes.flatMap((h) => locations.filter((l) => l.startsWith("~/")).map((l) => `${h}/${l.slice(2)}`))]
  for (const path of paths) {
    if (!path.startsWith("/") || /[*?[]/.test(path)) continue
    const st = lstatQuiet(path)
    if (!st) continue
    if (st.isDirectory()) walk(path, add)
    else add(path, st)
  }
  for (const path of named()) {
    const st = lstatQuiet(path)
    if (st) add(path, st)
  }
  return out
}

// the files below a credential folder, breadth first, at most PER_LOCATION entries
function walk(root: string, found: (path: string, st: Stats) => unknown): void {
  const queue = [root]
  let seen = 0
  for (let i = 0; i < queue.length && seen < PER_LOCATION; i++) {
    let names: string[]
    try {
      names = readdirSync(queue[i]!)
    } catch {
      continue
    }
    for (const n of names) {
      if (++seen > PER_LOCATION) return
      const p = `${queue[i]}/${n}`
      const st = lstatQuiet(p)
      if (st?.isDirectory()) queue.push(p)
      else if (st) found(p, st)
    }
  }
}

function lstatQuiet(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) ?? undefined
  } catch {
    return undefined
  }
}
