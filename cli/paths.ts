// Opening the database a command was pointed at (--db, CCODE_DB, or $CCODE_HOME/ccode.db).
import { openStore, type Store } from "../core/store/open.ts"
import { ccodeHome, dbPath } from "./home.ts"

export { ccodeHome, dbPath }

export function openDb(flag: string | undefined): Store {
  return openStore(dbPath(flag))
}

/** For commands that only look (runs ls/show/events/export, audit): never writes, works on a read-only home. */
export function openDbToRead(flag: string | undefined): Store {
  return openStore(dbPath(flag), { readonly: true })
}
