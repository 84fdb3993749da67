// Where ccode keeps its data: CCODE_HOME (default $XDG_DATA_HOME/ccode, else ~/.local/share/ccode)
// and the database (--db, else CCODE_DB, else $CCODE_HOME/ccode.db). Imports nothing heavy.
import { homedir } from "node:os"
import { join, resolve } from "node:path"
import { isPostgresUrl, redactUrl } from "../core/store/target.ts"

export function ccodeHome(env: Record<string, string | undefined> = process.env): string {
  if (env.CCODE_HOME) return resolve(env.CCODE_HOME)
  const data = env.XDG_DATA_HOME || join(homedir(), ".local", "share")
  return join(data, "ccode")
}

/** The commands that work on a PostgreSQL store; every other one refuses it (dbPath). */
export const PG_WIRED = "`ccode run`, `resume`, `approve`, `deny`, `answer`, `cancel`, `mcp`, `trust`, `init`, `runs`, `audit`, `hook`, `policy`, `plugins` and `db`"

/** The SQLite file --db / CCODE_DB name, for commands that use SQLite only: a PostgreSQL URL is refused (exit 2). */
export function dbPath(flag: string | undefined, env: Record<string, string | undefined> = process.env): string {
  const target = dbTarget(flag, env)
  if (isPostgresUrl(target)) {
    // never silently fall back to SQLite: the person asked for the shared database
    throw new PostgresNotWired(
      `${flag ? "--db" : "CCODE_DB"} names a PostgreSQL database (${redactUrl(target)}), but this command does not use PostgreSQL yet; ${PG_WIRED} do (see docs/store.md). Give --db / CCODE_DB a file path, or leave both unset`,
    )
  }
  return target
}

/** What --db / CCODE_DB name: a postgres:// URL as given, or the SQLite file's absolute path. */
export function dbTarget(flag: string | undefined, env: Record<string, string | undefined> = process.env): string {
  const given = flag || env.CCODE_DB
  if (given && isPostgresUrl(given)) return given.trim()
  return given ? resolve(given) : join(ccodeHome(env), "ccode.db")
}

export class PostgresNotWired extends Error {
  readonly exitCode = 2
}
