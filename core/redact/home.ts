// Rules that hide the user name in home-directory paths: `/home/NAME` -> `/home/***`, `/Users/NAME`,
// `C:\Users\NAME`, and the actual home directory given by the caller. Pure: never reads the environment.
import { escapeRegex, type Rule } from "./spans.ts"

const MARKER = "***"
/** A path starts here: not inside a word, a URL path (`example.com/home/x`) or a deeper path (`/mnt/home/x`). */
const PATH_START = String.raw`(?<![\w.~-]|[\w.-]/)`
const NAME = String.raw`([^\s/\\"'\x60<>|:;,()[\]{}*$?#%&=!]+)`

const GENERIC: readonly Rule[] = [
  { id: "home", marker: MARKER, anchors: ["home/"], re: new RegExp(String.raw`home/(?<=${PATH_START}/home/)` + NAME, "g") },
  { id: "home", marker: MARKER, anchors: ["Users/"], re: new RegExp(String.raw`Users/(?<=${PATH_START}/Users/)` + NAME, "g") },
  // Windows, also with JSON-doubled backslashes
  {
    id: "home",
    marker: MARKER,
    anchors: ["sers\\"],
    re: /sers\\{1,2}(?<=(?<![A-Za-z])[A-Za-z]:\\{1,2}[Uu]sers\\{1,2})([^\s\\/"'\x60<>|:;,*?]+)/g,
  },
]

/** `/home/NAME`, `/Users/NAME`, `C:\\Users\\NAME`. */
export function homeRules(): Rule[] {
  return [...GENERIC]
}

/** The caller's own home when it is not under /home or /Users (`/root`, `/var/lib/jenkins`). */
export function ownHomeRule(home?: string): Rule | undefined {
  if (!home) return undefined
  const path = home.replace(/[/\\]+$/, "")
  if (path === "" || /^(?:\/home|\/Users|[A-Za-z]:\\Users)[/\\][^/\\]+$/.test(path)) return undefined
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"))
  const parent = path.slice(0, cut + 1)
  const name = path.slice(cut + 1)
  if (name === "") return undefined
  // the name is the anchor; the parent path is checked behind it
  const re = new RegExp(
    escapeRegex(name) + `(?<=${PATH_START}${escapeRegex(parent + name)})(?![^\\s/\\\\"'\x60<>|:;,])`,
    "g",
  )
  return { id: "home", marker: MARKER, anchors: [name], re }
}
