// The built-in credential locations (core/base/secrets.ts) as one path set: below the caller's home and
// under /proc (anchored patterns), by name anywhere (the last segments only: a name pattern in the same
// regex would make it scan every position of every path), and below every other home on the machine
// (`~other/.netrc`, /root/.aws when HOME is elsewhere, /home/*/.ssh). Built on first use: the homes come
// from /etc/passwd.
import { isInsideFold, unicodeFold } from "../shell/index.ts"
import { CREDENTIAL_NAMES, credentialPatterns, homeCredentialRests } from "../base/secrets.ts"
import { realHome, userHomes } from "../base/homes.ts"
import { globSource } from "./glob.ts"
import { globsMeet } from "./globmeet.ts"
import type { PathSet } from "./compile.ts"

// homes by their shape, on machines whose accounts /etc/passwd does not list (macOS) or not yet
const HOME_SHAPES = [/^\/home\/[^/]+/i, /^\/Users\/[^/]+/i]

/** The set; `pathSet` compiles plain pattern lists (compile.ts). */
export function credentialSet(pathSet: (patterns: string[]) => PathSet): PathSet {
  const base = pathSet(credentialPatterns())
  const names = pathSet([...CREDENTIAL_NAMES])
  let ends: RegExp | undefined
  let globs: string[] | undefined
  // the names as one regex over the path's end: `(^|/)NAME$` for each, anchored at the end only
  const endRegex = () => (ends ??= new RegExp(`(?:^|/)(?:${CREDENTIAL_NAMES.map((n) => globSource(n.replace(/^\/\*\*\//, ""), "stop")).join("|")})$`, "i"))
  return {
    patterns: [...credentialPatterns(), ...CREDENTIAL_NAMES],
    regex: base.regex,
    hits(path, workspace, home, glob) {
      if (base.hits(path, workspace, home, glob)) return true
      if (glob === true && /[*?[]/.test(path)) {
        if (names.hits(path, workspace, home, true)) return true
        return (globs ??= otherHomeGlobs()).some((g) => related(path, g) && globsMeet(path, g, true))
      }
      const folded = unicodeFold(path)
      if (endRegex().test(tail(path)) || (folded !== undefined && endRegex().test(tail(folded)))) return true
      return belowOtherHome(path, home, (moved) => base.hits(moved, workspace, home))
    },
  }
}

/** A policy's `~/` path set judged below every home (`~/.ssh/**` covers /root/.ssh/id_rsa too). */
export function inEveryHome(set: PathSet): PathSet {
  return {
    ...set,
    hits(path, workspace, home, glob) {
      if (set.hits(path, workspace, home, glob)) return true
      return !(glob === true && /[*?[]/.test(path)) && belowOtherHome(path, home, (moved) => set.hits(moved, workspace, home))
    },
  }
}

/** A path set whose `~/` patterns also hold below the home's real path (HOME through a link): the
 *  paths of a call are real paths. */
export function viaRealHome(set: PathSet): PathSet {
  if (!set.patterns.some((p) => p.startsWith("~"))) return set
  return {
    ...set,
    hits(path, workspace, home, glob) {
      if (set.hits(path, workspace, home, glob)) return true
      const real = realHome(home)
      return real !== home && real.length < path.length && isInsideFold(real, path) && set.hits(home + path.slice(real.length), workspace, home, glob)
    },
  }
}

// below another home: the same path below the caller's home is judged (`/root/.netrc` as `~/.netrc`)
function belowOtherHome(path: string, home: string, hits: (moved: string) => boolean): boolean {
  for (const moved of movedHome(path, home)) if (hits(moved)) return true
  return false
}

// the path moved below the caller's home, one for each other home it is in; every path set of a policy
// asks for the same path in turn, so the last answer is kept
let lastPath = ""
let lastHome = ""
let lastMoved: string[] = []

function movedHome(path: string, home: string): string[] {
  if (path === lastPath && home === lastHome) return lastMoved
  const out: string[] = []
  for (const shape of HOME_SHAPES) {
    const m = shape.exec(path)
    if (m && m[0].length < path.length && m[0] !== home) out.push(home + path.slice(m[0].length))
  }
  for (const h of userHomes()) if (h.length < path.length && h !== home && isInsideFold(h, path)) out.push(home + path.slice(h.length))
  // the caller's home as the disk has it (HOME through a link): the paths of a call are real paths
  const real = realHome(home)
  if (real !== home && real.length < path.length && isInsideFold(real, path)) out.push(home + path.slice(real.length))
  lastPath = path
  lastHome = home
  lastMoved = out
  return out
}

// the last two segments: enough for every name (`.aws/credentials` has two)
function tail(path: string): string {
  const last = path.lastIndexOf("/")
  const before = last > 0 ? path.lastIndexOf("/", last - 1) : -1
  return before >= 0 ? path.slice(before) : path
}

// `H/REST/**` for every home and its shapes, for globs (`cat /home/*/.netrc`)
function otherHomeGlobs(): string[] {
  const homes = ["/home/*", "/Users/*", ...userHomes().filter((h) => !/[*?[{}\]]/.test(h))]
  return homes.flatMap((h) => homeCredentialRests().map((r) => `${h}/${r}/**`))
}

// the glob-free beginnings of both are on one line (one inside the other): a cheap test before globsMeet
function related(path: string, pattern: string): boolean {
  const a = path.slice(0, path.search(/[*?[]/)).toLowerCase()
  const b = pattern.slice(0, pattern.search(/[*?[]|$/)).toLowerCase()
  return a.startsWith(b) || b.startsWith(a)
}
