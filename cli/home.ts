// Where ccode keeps its data: CCODE_HOME (default $XDG_DATA_HOME/ccode, else ~/.local/share/ccode)
// and the database (--db, else CCODE_DB, else $CCODE_HOME/ccode.db). Imports nothing heavy.
import { homedir } from "node:os"
import { join, resolve } from "node:path"

export function ccodeHome(env: Record<string, string | undefined> = process.env): string {
  if (env.CCODE_HOME) return resolve(env.CCODE_HOME)
  const data = env.XDG_DATA_HOME || join(homedir(), ".local", "share")
  return join(data, "ccode")
}

export function dbPath(flag: string | undefined, env: Record<string, string | undefined> = process.env): string {
  if (flag) return resolve(flag)
  if (env.CCODE_DB) return resolve(env.CCODE_DB)
  return join(ccodeHome(env), "ccode.db")
}
