import { afterEach, describe, expect, test } from "bun:test"
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { appendAudit } from "../../core/audit/write.ts"
import { openStore, StoreError, storeProblem } from "../../core/store/open.ts"

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function dbPath(): string {
  const dir = mkdtempSync(join(tmpdir(), "ccode-store-"))
  dirs.push(dir)
  return join(dir, "ccode.db")
}

describe("database problems are clear errors (exit 2) that say what to do", () => {
  test("a file that is not a database", () => {
    const path = dbPath()
    writeFileSync(path, "this is not sqlite at all, just text that fills the header page".repeat(100))
    let caught: unknown
    try {
      openStore(path)
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(StoreError)
    expect((caught as StoreError).exitCode).toBe(2)
    expect((caught as Error).message).toContain("damaged or not a ccode database")
    expect((caught as Error).message).toContain("Move it aside")
  })

  test("a full disk: the write fails as a whole and the error says to free space and resume", () => {
    const store = openStore(dbPath())
    store.tx(() => appendAudit(store, { type: "session_start", actor: "user" }))
    const pages = (store.sqlite.query("PRAGMA page_count").get() as { page_count: number }).page_count
    store.sqlite.run(`PRAGMA max_page_count = ${pages}`) // the disk is full from here on
    let caught: unknown
    try {
      store.tx(() => {
        for (let i = 0; i < 200; i++) appendAudit(store, { type: "decision", actor: "policy", reason: "x".repeat(2000) })
      })
    } catch (error) {
      caught = error
    }
    const problem = storeProblem(caught, store.path)
    expect(problem?.exitCode).toBe(2)
    expect(problem?.message).toContain("is full")
    expect(problem?.message).toContain("ccode resume")
    expect((store.sqlite.query("SELECT count(*) AS n FROM audit").get() as { n: number }).n).toBe(1)
    store.close()
  })

  test("inspection opens read-only: reads work, writes are refused, nothing is migrated or created", () => {
    const path = dbPath()
    const writer = openStore(path)
    writer.tx(() => appendAudit(writer, { type: "session_start", actor: "user" }))
    writer.close()
    const reader = openStore(path, { readonly: true })
    expect((reader.sqlite.query("SELECT count(*) AS n FROM audit").get() as { n: number }).n).toBe(1)
    expect(() => reader.tx(() => appendAudit(reader, { type: "decision", actor: "policy" }))).toThrow("read-only")
    expect(() => reader.sqlite.run("DELETE FROM audit")).toThrow()
    reader.close()
    expect(existsSync(`${path}-journal`)).toBe(false)
  })
})
