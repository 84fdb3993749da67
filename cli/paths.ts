// Opening the database a command was pointed at (--db, CCODE_DB, or $CCODE_HOME/ccode.db).
import { openStore, type Store } from "../core/store/open.ts"
import { openSqlite, type SqliteStore } from "../core/store/sqlite.ts"
import { ccodeHome, dbPath } from "./home.ts"

export { ccodeHome, dbPath }

export function openDb(flag: string | undefined): Store {
  return openStore(dbPath(flag))
}

/** The database without the ORM, for commands that must start fast (hook). */
export function openDbLite(flag: string | undefined): SqliteStore {
  return openSqlite(dbPath(flag))
}
