// Where ccode keeps its data: CCODE_HOME (default $XDG_DATA_HOME/ccode, else ~/.local/share/ccode)
// and the database (--db, else CCODE_DB, else $CCODE_HOME/ccode.db). Imports nothing heavy.
import { homedir } from "node:os"
import { join, resolve } from "node:path"
import { isPostgresUrl } from "../core/store/target.ts"

export function ccodeHome(env: Record<string, string | undefined> = process.env): string {
  if (env.CCODE_HOME) return resolve(env.CCODE_HOME)
  const data = env.XDG_DATA_HOME || join(homedir(), ".local", "share")
  return join(data, "ccode")
}

/** What --db / CCODE_DB name: a postgres:// URL as given, or the SQLite file's absolute path. */
export function dbTarget(flag: string | undefined, env: Record<string, string | undefined> = process.env): string {
  const given = flag || env.CCODE_DB
  if (given && isPostgresUrl(given)) return given.trim()
  return given ? resolve(given) : join(ccodeHome(env), "ccode.db")
}
