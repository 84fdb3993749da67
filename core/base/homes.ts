// The machine's home directories: every account's in /etc/passwd, and /root. Credentials kept in any of
// them are as near as the caller's own when the agent runs as root, or with a HOME that is not the
// account's (containers, CI). Read once, on first use; never written.
import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs"
import { posix } from "node:path"

let homes: readonly string[] | undefined
const reals = new Map<string, string>()

/** The home directory as the disk has it (HOME may lead through a link: Fedora Atomic's /home ->
 *  var/home, automounted homes): `~/` rules must match below both. Looked up once per home. */
export function realHome(home: string): string {
  let r = reals.get(home)
  if (r === undefined) {
    try {
      r = realpathSync(home)
    } catch {
      // no such folder: nothing is below it either way
      r = home
    }
    reals.set(home, r)
  }
  return r
}

/** Absolute, normalised, without "/" (a home of "/" would make every path a home's). */
export function userHomes(): readonly string[] {
  if (homes) return homes
  const found = new Set<string>(["/root"])
  let text = ""
  try {
    text = readFileSync("/etc/passwd", "utf8")
  } catch {
    // no passwd (macOS keeps accounts elsewhere): /home/* and /Users/* are judged by their shape
  }
  for (const line of text.split("\n")) {
    const dir = line.split(":")[5]
    if (!dir?.startsWith("/")) continue
    const norm = posix.normalize(dir).replace(/\/+$/, "")
    if (norm) found.add(norm)
  }
  homes = [...found]
  return homes
}

/** Every home directory there is on this machine, the caller's included: the accounts' (that exist as
 *  folders) and each folder in /home and /Users. For hiding other accounts' credentials in a sandbox. */
export function existingHomes(): string[] {
  const out = new Set<string>()
  for (const h of userHomes()) if (isDir(h)) out.add(h)
  for (const parent of ["/home", "/Users"]) {
    let names: string[] = []
    try {
      names = readdirSync(parent)
    } catch {
      // no such folder here
    }
    for (const n of names) if (isDir(`${parent}/${n}`)) out.add(`${parent}/${n}`)
  }
  return [...out]
}

function isDir(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true
}
