// The machine's home directories: every account's in /etc/passwd, and /root. Credentials kept in any of
// them are as near as the caller's own when the agent runs as root, or with a HOME that is not the
// account's (containers, CI). Read once, on first use; never written.
import { readFileSync } from "node:fs"
import { posix } from "node:path"

let homes: readonly string[] | undefined

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
