// The built-in credential locations (core/base/secrets.ts) as one path set: below the caller's home, by
// name anywhere, under /proc, and below every other home on the machine (`~other/.netrc`, /root/.aws when
// HOME is elsewhere, /home/*/.ssh). Built on first use: the homes come from /etc/passwd.
import { isInsideFold } from "../shell/index.ts"
import { credentialPatterns, homeCredentialRests } from "../base/secrets.ts"
import { userHomes } from "../base/homes.ts"
import { globSource } from "./glob.ts"
import { globsMeet } from "./globmeet.ts"
import type { PathSet } from "./compile.ts"

// homes by their shape, on machines whose accounts /etc/passwd does not list (macOS) or not yet
const HOME_SHAPES = [/^\/home\/[^/]+/i, /^\/Users\/[^/]+/i]

/** The set, over a plain path set of the patterns that need no home list. */
export function credentialSet(base: PathSet): PathSet {
  let rests: RegExp | undefined
  let globs: string[] | undefined
  const restRegex = () => (rests ??= new RegExp(`^/(?:${homeCredentialRests().map((r) => globSource(r, "stop")).join("|")})(?:/.*)?$`, "i"))
  return {
    patterns: [...credentialPatterns()],
    regex: base.regex,
    hits(path, workspace, home, glob) {
      if (base.hits(path, workspace, home, glob)) return true
      if (glob === true && /[*?[]/.test(path)) return (globs ??= otherHomeGlobs()).some((g) => related(path, g) && globsMeet(path, g, true))
      for (const shape of HOME_SHAPES) {
        const m = shape.exec(path)
        if (m && restRegex().test(path.slice(m[0].length))) return true
      }
      for (const h of userHomes()) if (isInsideFold(h, path) && restRegex().test(path.slice(h.length))) return true
      return false
    },
  }
}

// `H/REST/**` for every home and its shapes, for globs (`cat /home/*/.netrc`)
function otherHomeGlobs(): string[] {
  const homes = ["/home/*", "/Users/*", ...userHomes().filter((h) => !/[*?[{}\]]/.test(h))]
  return homes.flatMap((h) => homeCredentialRests().map((r) => `${h}/${r}/**`))
}

// the glob-free beginnings of both are on one line (one inside the other): a cheap test before globsMeet
function related(path: string, pattern: string): boolean {
  const a = path.slice(0, path.search(/[*?[]/))
  const b = pattern.slice(0, pattern.search(/[*?[]|$/))
  return a.toLowerCase().startsWith(b.toLowerCase()) || b.toLowerCase().startsWith(a.toLowerCase())
}
