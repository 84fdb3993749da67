import { afterEach, describe, expect, test } from "bun:test"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
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

describe("a database that SQLite reports as corrupt", () => {
  test("is checked once when the corruption shows, and no run starts on it until the file is replaced", () => {
    const path = dbPath()
    const store = openStore(path)
    store.tx(() => {
      for (let i = 0; i < 400; i++) appendAudit(store, { type: "decision", actor: "policy", reason: `row ${i} `.repeat(40) })
    })
    store.sqlite.run("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    // damage pages in the middle of the audit table, as a failing disk would
    const bytes = readFileSync(path)
    for (let page = 8; page * 4096 < bytes.length; page += 2) for (let at = page * 4096; at < page * 4096 + 64; at++) bytes[at] = (at * 7919) % 251
    writeFileSync(path, bytes)
    // SQLite reports it on open or on the first write that reads a damaged page: either way it is checked then
    let caught: unknown
    try {
      const damaged = openStore(path)
      try {
        damaged.tx(() => damaged.sqlite.query("SELECT count(*), sum(length(reason)) FROM audit").get())
      } finally {
        damaged.close()
      }
    } catch (error) {
      caught = error
    }
    expect(caught).toBeDefined()
    expect(existsSync(`${path}.damaged`)).toBe(true)
    expect(() => openStore(path)).toThrow("failed an integrity check")
    // replaced by a fresh file at the same path: ccode runs again
    rmSync(path)
    expect(() => openStore(path).close()).not.toThrow()
  })
})
