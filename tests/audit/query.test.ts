import { describe, expect, test } from "bun:test"
import { parseFilter } from "../../core/audit/filter.ts"
import { auditView, queryAudit, resolveAuditRun } from "../../core/audit/query.ts"
import { csvCell, redactView, renderExport } from "../../core/audit/export.ts"
import { createRedactor } from "../../core/redact/index.ts"
import { sampleRun, storeWith } from "./helpers.ts"

const NOW = Date.UTC(2026, 0, 31, 13)
const store = storeWith([...sampleRun("r0a1", Date.UTC(2026, 0, 31, 12)), ...sampleRun("r0b2", Date.UTC(2026, 0, 30, 12))])
const ids = (flags: Parameters<typeof parseFilter>[0]) => queryAudit(store, parseFilter(flags, NOW)).map((r) => r.id)

describe("filters as a user types them", () => {
  test("--since 1h, --until, and dates", () => {
    expect(parseFilter({ since: "1h" }, NOW).since).toBe(NOW - 3_600_000)
    expect(parseFilter({ since: "2026-01-30" }, NOW).since).toBe(Date.UTC(2026, 0, 30))
    expect(parseFilter({ until: "2026-01-31T12:00:00Z" }, NOW).until).toBe(Date.UTC(2026, 0, 31, 12))
    expect(() => parseFilter({ since: "yesterday" }, NOW)).toThrow(/--since takes a duration/)
    expect(() => parseFilter({ since: "1h", until: "2h" }, NOW)).toThrow(/is after --until/)
  })

  test("--decision takes policy words or audit results; --risk high+ means high and above", () => {
    expect(parseFilter({ decision: "deny" }, NOW).results).toEqual(["denied"])
    expect(parseFilter({ decision: "allow,failed" }, NOW).results).toEqual(["approved", "failed"])
    expect(parseFilter({ risk: "high+" }, NOW).risks).toEqual(["high", "critical"])
    expect(() => parseFilter({ decision: "maybe" }, NOW)).toThrow(/--decision takes one of allow/)
    expect(() => parseFilter({ type: "tool-call" }, NOW)).toThrow(/--type takes one of permission/)
  })

  test("queries combine filters, and rows come back oldest first", () => {
    expect(ids({ run: "r0a1" })).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(ids({ run: "r0b2", decision: "deny" })).toEqual([13, 17])
    expect(ids({ type: "decision", risk: "high+" })).toEqual([4, 13])
    expect(ids({ tool: "write_file", type: "tool_call" })).toEqual([7, 16])
    expect(ids({ since: "2026-01-31", until: "2026-01-31T12:00:00.030Z" })).toEqual([1, 2, 3, 4])
    expect(ids({ limit: "2" })).toEqual([17, 18])
  })

  test("a run is found by a unique prefix of its id", () => {
    expect(resolveAuditRun(store, "r0b")).toBe("r0b2")
    expect(() => resolveAuditRun(store, "r0")).toThrow(/ambiguous/)
    expect(() => resolveAuditRun(store, "zz")).toThrow(/no audit rows/)
  })
})

describe("exports", () => {
  const views = queryAudit(store, { runs: ["r0a1"] }).map(auditView)

  test("json and jsonl carry the documented field names, ISO times and parsed data", () => {
    const lines = renderExport(views, "jsonl").trimEnd().split("\n").map((l) => JSON.parse(l))
    expect(lines).toHaveLength(9)
    expect(Object.keys(lines[1])).toEqual(["id", "ts", "run", "call", "type", "actor", "tool", "action", "result", "risk", "auto_approved", "reason", "data", "prev_hash", "hash"])
    expect(lines[1]).toMatchObject({ ts: "2026-01-31T12:00:00.010Z", auto_approved: true, data: { args: { command: "bun test" } } })
    expect(JSON.parse(renderExport(views, "json"))).toEqual(lines)
  })

  test("csv quotes what needs quoting and keeps spreadsheets from running formulas", () => {
    const csv = renderExport(views, "csv").split("\r\n")
    expect(csv[0]).toBe("id,ts,run,call,type,actor,tool,action,result,risk,auto_approved,reason,data,prev_hash,hash")
    expect(csv[2]).toContain(`"{""args"":{""command"":""bun test""}}"`)
    expect(csvCell('say "hi", then\nleave')).toBe('"say ""hi"", then\nleave"')
    expect(csvCell("=HYPERLINK(\"x\")")).toBe(`"'=HYPERLINK(""x"")"`)
    expect(csvCell("-rf")).toBe("'-rf")
    expect(csvCell(-3)).toBe("-3")
  })

  test("markdown escapes pipes and line breaks so the table holds", () => {
    const md = renderExport([{ ...views[0]!, reason: "a | b\nc" }], "md").split("\n")
    expect(md[2]).toContain("a \\| b<br>c")
    expect(md[0]!.split(" | ")).toHaveLength(12)
  })

  test("exports are redacted once more on the way out", () => {
    const leaky = { ...views[0]!, reason: "answered: token ghp_abcdefghijklmnopqrstuvwxyz0123456789", data: { password: "hunter2hunter2" } }
    const safe = redactView(leaky, createRedactor({}))
    expect(JSON.stringify(safe)).not.toContain("ghp_abcdefghijklmnopqrstuvwxyz0123456789")
    expect(JSON.stringify(safe)).not.toContain("hunter2hunter2")
  })
})
