// Which backend a --db / CCODE_DB value selects, and URLs shown without their secrets.
import { expect, test } from "bun:test"
import { dbTarget } from "../../cli/home.ts"
import { isPostgresUrl, redactUrl } from "../../core/store/target.ts"

test("postgres:// and postgresql:// select PostgreSQL, in any case, even mistyped; everything else is a SQLite file", () => {
  for (const v of ["postgres://h/db", "postgresql://u@h:5432/db", "POSTGRES://h/db", " postgres://h/db", "postgres:/h/db", "postgresql:h"]) expect(isPostgresUrl(v)).toBe(true)
  for (const v of ["./ccode.db", "/var/lib/ccode.db", "postgres.db", "my-postgres://x", ":memory:", "pg://h/db"]) expect(isPostgresUrl(v)).toBe(false)
})

test("the password is hidden wherever the URL holds it", () => {
  expect(redactUrl("postgres://ccode:s3cret@db:5432/ccode")).toBe("postgres://ccode:***@db:5432/ccode")
  expect(redactUrl("postgres://db/ccode?user=u&password=s3cret&sslpassword=k&sslmode=require")).toBe("postgres://db/ccode?user=u&password=***&sslpassword=***&sslmode=require")
  expect(redactUrl("postgres://ccode@db/ccode")).toBe("postgres://ccode@db/ccode")
  const broken = redactUrl("postgres://u:s3cret@[bad")
  expect(broken).not.toContain("s3cret")
  expect(broken).toContain("unparseable")
})

test("dbTarget keeps a URL as given (even one that merely starts like one) and resolves a path", () => {
  expect(dbTarget("postgres://h/db", {})).toBe("postgres://h/db")
  expect(dbTarget(" postgres:/h/db", {})).toBe("postgres:/h/db")
  expect(dbTarget(undefined, { CCODE_DB: "postgres://h/db" })).toBe("postgres://h/db")
  expect(dbTarget(undefined, { CCODE_HOME: "/x" })).toBe("/x/ccode.db")
  expect(dbTarget("rel.db", {})).toBe(`${process.cwd()}/rel.db`)
})
