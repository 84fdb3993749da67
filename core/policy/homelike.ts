// A folder that is a home by its contents though no account has it (a CI container's HOME=/github/home,
// a copied home in /tmp or a backup): the credential locations kept only in a home (`.bash_history`,
// `.config/gh/hosts.yml`, `.docker/config.json`) are credentials there too. A folder is taken for a home
// when it holds a shell's start-up file or a `.ssh` folder, the marks every home has and a project has
// not. Side effects: lstat of those few names, only for a path that ends in a home-only location.
import { lstatSync } from "node:fs"
import { homeCredentialRests } from "../base/secrets.ts"

const MARKS = [".bashrc", ".profile", ".bash_profile", ".zshrc", ".ssh"]
let rests: string[] | undefined

/** The home-like folder and the location below it when `path` is a home-only credential location in a
 *  folder that holds a home's marks; undefined otherwise. `homes` are judged already (skipped). */
export function homeLikeCredential(path: string, homes: readonly string[]): { base: string; rest: string; mark: string } | undefined {
  rests ??= homeCredentialRests()
  for (const rest of rests) {
    const at = path.lastIndexOf(`/${rest}`)
    if (at < 0) continue
    const end = at + rest.length + 1
    if (end !== path.length && path.charCodeAt(end) !== 47) continue
    const base = path.slice(0, at) || "/"
    if (homes.includes(base)) continue
    // `.ssh/config` proves nothing by its own `.ssh`
    const mark = MARKS.find((m) => rest !== m && !rest.startsWith(`${m}/`) && exists(`${base === "/" ? "" : base}/${m}`))
    if (mark) return { base, rest, mark }
  }
  return undefined
}

// ENAMETOOLONG, ENOTDIR, EACCES: not a mark that can be seen
function exists(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined
  } catch {
    return false
  }
}
