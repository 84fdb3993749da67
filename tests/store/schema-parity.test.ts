// The PostgreSQL schema mirrors the SQLite one: a column added to one and forgotten in the other
// fails here, before any backend behaves differently.
import { expect, test } from "bun:test"
import { getTableConfig as pgTable, PgTable } from "drizzle-orm/pg-core"
import { getTableConfig as sqliteTable, SQLiteTable } from "drizzle-orm/sqlite-core"
import * as pg from "../../core/runstore/pg/schema.ts"
import * as sqlite from "../../core/store/schema.ts"

// the one intended difference: PostgreSQL text cannot hold the NUL that joins workspace and path
const PG_ONLY: Record<string, string[]> = { trust: ["workspace"] }

test("every SQLite table and column exists in the PostgreSQL schema, with the same names, keys and indexes", () => {
  const lite = (Object.values(sqlite) as unknown[]).filter((t): t is SQLiteTable => t instanceof SQLiteTable).map(sqliteTable)
  const post = new Map((Object.values(pg) as unknown[]).filter((t): t is PgTable => t instanceof PgTable).map((t) => [pgTable(t).name, pgTable(t)]))
  expect([...post.keys()].sort()).toEqual(lite.map((t) => t.name).sort())
  for (const table of lite) {
    const other = post.get(table.name)!
    const extra = PG_ONLY[table.name] ?? []
    expect(other.columns.map((c) => c.name).filter((c) => !extra.includes(c)).sort(), table.name).toEqual(table.columns.map((c) => c.name).sort())
    for (const column of table.columns) {
      const twin = other.columns.find((c) => c.name === column.name)!
      // (trust's key is the pair in PostgreSQL, so its path is no key of its own there)
      const primary = (c: { primary: boolean }) => (extra.length ? undefined : c.primary)
      expect({ table: table.name, column: column.name, notNull: twin.notNull, primary: primary(twin) }).toEqual({ table: table.name, column: column.name, notNull: column.notNull, primary: primary(column) })
    }
    expect(other.indexes.map((i) => i.config.name).sort(), table.name).toEqual(table.indexes.map((i) => i.config.name).sort())
    expect(other.foreignKeys.length, table.name).toBe(table.foreignKeys.length)
  }
})
