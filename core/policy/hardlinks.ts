// A hard link is another name of the same file: `notes.txt` made with `ln ~/.netrc notes.txt` (by a prior
// session, a host tool, a restored backup) prints the credential when read, and no path rule meets its
// name. A read file with more than one link is compared (device and inode) with the credential files on
// this machine: every account's home's credential locations (a folder's files up to a bound each, looked
// at further when a file on its device is not found), the files settings name, the machine's own secrets,
// and the workspace's own credential files (its .env*: those the path rules name). Side effects: stat,
// list the credential folders and the workspace (once a decision).
import { lstatSync, readdirSync, type Stats } from "node:fs"
import { CREDENTIAL_PATHS, BUILD_CREDENTIAL_PATHS } from "../base/secrets.ts"
import { existingHomes } from "../base/homes.ts"
import { workspaceCredentialFiles, WORKSPACE_ENTRIES } from "./wscreds.ts"

/** How many entries one credential folder adds at first (a browser profile holds thousands). */
const PER_LOCATION = 400
/** How many more a folder cut at PER_LOCATION is read to when a linked file on its device is not found:
 *  past it, whether the file is one of that folder's cannot be ruled out. */
const DEEP_LOCATION = 20_000
export interface InodeTable {
  inodes?: Map<string, string>
  /** credential folders cut at PER_LOCATION (device of each), then read further on a miss */
  cut?: { root: string; dev: number; deep?: boolean }[]
  /** what could not be looked at in full: a miss on that device cannot be ruled out */
  unsure?: { dev: number; why: string }[]
}

export interface LinkContext {
  home: string
  named: () => Iterable<string>
  workspace?: string
  judged?: (path: string) => boolean
}

/** The credential file `st` (a read file's stat) is another name of (`found`), or why that cannot be ruled
 *  out (`unsure`: a credential folder or the workspace is too large to list), or undefined. `table`: the
 *  decision's inode table, built on the first file with more than one link (never kept across decisions: a
 *  link made a moment ago counts). */
export function hardLinkedCredential(st: Stats, ctx: LinkContext, table: InodeTable): { found: string } | { unsure: string } | undefined {
  if (!st.isFile() || st.nlink < 2) return undefined
  if (!table.inodes) build(ctx, table)
  const key = `${st.dev}:${st.ino}`
  let found = table.inodes!.get(key)
  if (found) return { found }
  for (const c of table.cut!) {
    if (c.deep || c.dev !== st.dev) continue
    c.deep = true
    if (walk(c.root, (p, s) => add(table.inodes!, p, s), DEEP_LOCATION)) table.unsure!.push({ dev: c.dev, why: `the credential folder ${c.root} holds more than ${DEEP_LOCATION} entries` })
  }
  found = table.inodes!.get(key)
  if (found) return { found }
  const unsure = table.unsure!.find((u) => u.dev === st.dev)
  return unsure ? { unsure: unsure.why } : undefined
}

function add(out: Map<string, string>, path: string, st: Stats): void {
  if (st.isFile() && st.nlink > 1) out.set(`${st.dev}:${st.ino}`, path)
}

function build(ctx: LinkContext, table: InodeTable): void {
  const out = (table.inodes = new Map<string, string>())
  table.cut = []
  table.unsure = []
  // the caller's home first, then every account's home (ccode run as root can link theirs: www-data's
  // /var/www, services' homes under /opt or /var/spool)
  const homes = [ctx.home, ...existingHomes().filter((h) => h !== ctx.home && h !== "/")]
  const locations = [...CREDENTIAL_PATHS, ...BUILD_CREDENTIAL_PATHS]
  const inHome = locations.filter((l) => l.startsWith("~/")).map((l) => l.slice(1))
  const paths = [...locations.filter((l) => !l.startsWith("~/")), ...homes.flatMap((h) => inHome.map((l) => h + l))]
  for (const path of paths) {
    if (!path.startsWith("/") || /[*?[]/.test(path)) continue
    const st = lstatQuiet(path)
    if (!st) continue
    if (!st.isDirectory()) add(out, path, st)
    else if (walk(path, (p, s) => add(out, p, s), PER_LOCATION)) table.cut.push({ root: path, dev: st.dev })
  }
  for (const path of ctx.named()) {
    const st = lstatQuiet(path)
    if (st) add(out, path, st)
  }
  if (ctx.workspace && ctx.judged) workspaceCredentials(ctx.workspace, ctx.judged, out, table.unsure)
}

// the workspace's own credential files (core/policy/wscreds.ts)
function workspaceCredentials(root: string, judged: (path: string) => boolean, out: Map<string, string>, unsure: { dev: number; why: string }[]): void {
  const top = lstatQuiet(root)
  if (!top?.isDirectory()) return
  const found = workspaceCredentialFiles(root, judged)
  for (const p of found.files) {
    const st = lstatQuiet(p)
    if (st) add(out, p, st)
  }
  if (!found.complete) unsure.push({ dev: top.dev, why: `the workspace holds more than ${WORKSPACE_ENTRIES} entries, so its own credential files could not all be compared` })
}

// the files below a credential folder, breadth first, at most `max` entries; true when cut there
function walk(root: string, found: (path: string, st: Stats) => unknown, max: number): boolean {
  const queue = [root]
  let seen = 0
  for (let i = 0; i < queue.length; i++) {
    let names: string[]
    try {
      names = readdirSync(queue[i]!)
    } catch {
      continue
    }
    for (const n of names) {
      if (++seen > max) return true
      const p = `${queue[i]}/${n}`
      const st = lstatQuiet(p)
      if (st?.isDirectory()) queue.push(p)
      else if (st) found(p, st)
    }
  }
  return false
}

function lstatQuiet(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) ?? undefined
  } catch {
    return undefined
  }
}
