// ccode's own files: the user's policy folder (trusted without `ccode trust`), its data folder (the store
// of runs, grants and the audit) and database, and the managed policy folder. A command or host tool
// that writes there changes what ccode allows next, wherever they are (a workspace that is the home
// holds the first two). Pure.
import { join, resolve } from "node:path"
import { isInside } from "../base/paths.ts"

const MANAGED_DIR = "/etc/ccode"

export interface OwnPaths {
  /** folders: the user policy's, the data folder, the managed policy's */
  dirs: string[]
  /** the database files (SQLite; their -wal, -shm and -journal files count as them) */
  dbs: string[]
}

/** Where ccode keeps its own files, from the environment it runs in. */
export function ccodeOwnPaths(env: Record<string, string | undefined>, home: string): OwnPaths {
  const config = env.XDG_CONFIG_HOME || join(home, ".config")
  const data = env.CCODE_HOME ? resolve(env.CCODE_HOME) : join(env.XDG_DATA_HOME || join(home, ".local", "share"), "ccode")
  // the default places too, when the variables move them elsewhere: the next ccode may run without them
  const defaultData = join(home, ".local", "share", "ccode")
  const dbs = [...new Set([join(data, "ccode.db"), join(defaultData, "ccode.db")])]
  const db = env.CCODE_DB
  if (db && !/^postgres(ql)?:\/\//i.test(db.trim())) dbs.push(resolve(db))
  return { dirs: [...new Set([join(config, "ccode"), join(home, ".config", "ccode"), data, defaultData, MANAGED_DIR])], dbs }
}

/** Why writing `path` writes ccode's own configuration or store; undefined when it does not. A temp
 *  folder ccode made inside its data folder (a run's TMPDIR) is the call's to write. */
export function ownFileWrite(own: OwnPaths | undefined, path: string, tmpDirs: readonly string[]): string | undefined {
  if (!own) return undefined
  const db = ownDatabase(own, path)
  if (db) return `writes to ccode's own database (${db}): it would change what ccode allows next`
  const hit = own.dirs.find((p) => isInside(p, path))
  if (!hit || tmpDirs.some((t) => isInside(hit, t) && isInside(t, path))) return undefined
  return `writes to ccode's own configuration or store (${hit}): it would change what ccode allows next`
}

/** The database `path` is (or one of its -wal/-shm/-journal files): any program that opens it may change
 *  the runs, grants and audit (`sqlite3 ccode.db 'insert …'` reads as a read). */
export function ownDatabase(own: OwnPaths | undefined, path: string): string | undefined {
  return own?.dbs.find((db) => path === db || path.startsWith(`${db}-`))
}
