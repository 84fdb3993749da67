// A hard link is another name of the same file: `notes.txt` made with `ln ~/.netrc notes.txt` (by a prior
// session, a host tool, a restored backup) prints the credential when read, and no path rule meets its
// name. A read file with more than one link is compared (device and inode) with the credential files on
// this machine: the home's credential locations (a folder's files up to a bound each), the files settings
// name, the machine's own secrets. Side effects: stat, list the credential folders (cached for a moment).
import { lstatSync, readdirSync, type Stats } from "node:fs"
import { CREDENTIAL_PATHS, BUILD_CREDENTIAL_PATHS } from "../base/secrets.ts"

/** How many entries one credential folder may add (a browser profile holds thousands: past it, the rest of
 *  that folder is not looked at) and how long the inode table is kept. */
const PER_LOCATION = 400
const KEEP_MS = 2000

let cached: { key: string; at: number; inodes: Map<string, string> } | undefined

/** The credential file `st` (a read file's stat) is another name of, or undefined. `named`: more credential
 *  files (those settings name). */
export function hardLinkedCredential(st: Stats, home: string, named: () => Iterable<string>): string | undefined {
  if (!st.isFile() || st.nlink < 2) return undefined
  return inodes(home, named).get(`${st.dev}:${st.ino}`)
}

function inodes(home: string, named: () => Iterable<string>): Map<string, string> {
  const now = Date.now()
  if (cached && cached.key === home && now - cached.at < KEEP_MS) return cached.inodes
  const out = new Map<string, string>()
  const add = (path: string, st: Stats) => {
    if (st.isFile() && st.nlink > 1) out.set(`${st.dev}:${st.ino}`, path)
  }
  for (const loc of [...CREDENTIAL_PATHS, ...BUILD_CREDENTIAL_PATHS]) {
    const path = loc.startsWith("~/") ? `${home}/${loc.slice(2)}` : loc
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
  cached = { key: home, at: now, inodes: out }
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
