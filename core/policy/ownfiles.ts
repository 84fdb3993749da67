// ccode's own files outside the workspace: the user's policy layer ($XDG_CONFIG_HOME/ccode, trusted
// without `ccode trust`), its data folder (CCODE_HOME: the store of grants and audit rows, snapshots) and
// the database CCODE_DB names. A write there changes what ccode allows next (one planted allow rule, a
// grant row), so it is judged like a write to .ccode/: critical. Pure but for the paths it is given.
import { join, resolve } from "node:path"
import { isInside } from "../base/paths.ts"
import { userPolicyFile } from "./workspace.ts"
import type { CallPath } from "./types.ts"
import type { Raised } from "./ondisk.ts"

/** Raise each write into ccode's own configuration or data, and any touch of its database (sqlite3 writes
 *  the file it is given whatever the analysis reads it as). */
export function ownFileWrites(paths: readonly CallPath[], home: string, env: Record<string, string | undefined> | undefined, raised: Raised): void {
  if (!paths.length || !home) return
  const e = env ?? {}
  const places: [string, string][] = [
    [join(userPolicyFile(e, home), ".."), "ccode's user policy folder"],
    [e.CCODE_HOME ? resolve(e.CCODE_HOME) : join(e.XDG_DATA_HOME || join(home, ".local", "share"), "ccode"), "ccode's data folder (its grants and audit store)"],
    // the defaults too, when the variables move them elsewhere: the next ccode may run without them
    [join(home, ".config", "ccode"), "ccode's user policy folder"],
    [join(home, ".local", "share", "ccode"), "ccode's data folder (its grants and audit store)"],
  ]
  const dbs = [join(places[1]![0], "ccode.db"), join(places[3]![0], "ccode.db")]
  if (e.CCODE_DB && !/^postgres(ql)?:/i.test(e.CCODE_DB)) dbs.push(resolve(e.CCODE_DB))
  for (const p of paths) {
    const at = p.access === "write" ? places.find(([dir]) => isInside(dir, p.path)) : undefined
    const why = at?.[1] ?? (dbs.some((db) => p.path === db || p.path.startsWith(`${db}-`)) ? "ccode's database (its grants and audit rows)" : undefined)
    if (why) {
      raised.push({ risk: "critical", reason: `${p.access === "write" ? "writes" : "opens"} ${p.path}, ${at ? "in " : ""}${why}: it changes what ccode allows next` })
      return
    }
  }
}
