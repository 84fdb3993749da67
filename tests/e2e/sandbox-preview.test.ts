// Preview, confirm, commit through the compiled binary: a `sed -i` step in preview mode changes
// nothing until approved; approving applies exactly the previewed change; denying leaves the workspace as it was.
import { afterEach, describe, expect, test } from "bun:test"
import { existsSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { atTerminalPressingEnter, ccode, events, sandbox, type Sandbox } from "./harness.ts"
import { pathWithoutBwrap } from "./no-bwrap.ts"

const HAS_BWRAP = Bun.which("bwrap") !== null
const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

// bytes sed must keep as they are: no trailing newline, CRLF, a tab, non-ASCII
const ORIGINAL = "hello world\r\nsecond\tline world\nünïcode world"
const EDITED = "hello there\r\nsecond\tline there\nünïcode there"

function box(policy = ""): Sandbox {
  const sb = sandbox()
  made.push(sb.root)
  sb.file("notes.txt", ORIGINAL)
  sb.file("old.txt", "to be removed\n")
  sb.file("task.yaml", [
    "version: 1",
    policy,
    "steps:",
    "  - id: edit",
    "    run: sed -i 's/world/there/g' notes.txt && rm old.txt && printf 'x' > new.txt",
    ...(policy ? [] : ["    preview: true"]),
    "  - id: after",
    "    needs: [edit]",
    "    run: cat notes.txt",
    "",
  ].join("\n"))
  return sb
}

const untouched = (sb: Sandbox) => {
  expect(readFileSync(join(sb.work, "notes.txt"), "utf8")).toBe(ORIGINAL)
  expect(existsSync(join(sb.work, "old.txt"))).toBe(true)
  expect(existsSync(join(sb.work, "new.txt"))).toBe(false)
}

describe.skipIf(!HAS_BWRAP)("preview, confirm, commit", () => {
  test("without a terminal: pauses with the diff in the request and changes nothing; approve + resume applies it byte for byte", async () => {
    const sb = box()
    const first = await ccode(sb, ["run", "task.yaml", "--yes", "--json"])
    expect(first.code).toBe(3)
    untouched(sb)
    const request = events(first.stdout).find((e) => e.type === "request.created")!
    const preview = request.preview as { changes: { path: string; kind: string }[]; diff: string }
    expect(preview.changes).toEqual([
      { path: "new.txt", kind: "added" },
      { path: "notes.txt", kind: "changed" },
      { path: "old.txt", kind: "deleted" },
    ])
    expect(preview.diff).toContain("-second\tline world")
    expect(preview.diff).toContain("+second\tline there")
    const approve = await ccode(sb, ["approve", String(request.run), String(request.req)])
    expect(approve.code).toBe(0)
    untouched(sb) // approving records the answer; the change lands when the run goes on
    const resumed = await ccode(sb, ["resume", String(request.run), "--json"])
    expect(resumed.code).toBe(0)
    expect(readFileSync(join(sb.work, "notes.txt"), "utf8")).toBe(EDITED)
    expect(existsSync(join(sb.work, "old.txt"))).toBe(false)
    expect(readFileSync(join(sb.work, "new.txt"), "utf8")).toBe("x")
    // the step after it saw the applied change
    const finished = events(resumed.stdout).filter((e) => e.type === "step.finished")
    expect(finished.map((e) => e.status)).toEqual(["ok", "ok"])
  }, 120_000)

  test("deny discards the change: the workspace is left exactly as it was", async () => {
    const sb = box()
    const first = await ccode(sb, ["run", "task.yaml", "--yes", "--json"])
    expect(first.code).toBe(3)
    const request = events(first.stdout).find((e) => e.type === "request.created")!
    expect((await ccode(sb, ["deny", String(request.run), String(request.req)])).code).toBe(0)
    const resumed = await ccode(sb, ["resume", String(request.run)])
    expect(resumed.code).toBe(5)
    untouched(sb)
  }, 120_000)

  test("sandbox.preview in the policy previews every shell call", async () => {
    const sb = box("policy: { sandbox: { preview: true } }")
    const first = await ccode(sb, ["run", "task.yaml", "--yes", "--json"])
    expect(first.code).toBe(3)
    untouched(sb)
    expect(events(first.stdout).some((e) => e.type === "request.created" && e.preview)).toBe(true)
  }, 120_000)

  test("a step with its own cwd previews inside the copy of that folder", async () => {
    const sb = box()
    sb.file("sub/f.txt", "a\n")
    sb.file("task.yaml", "version: 1\nsteps:\n  - id: sub\n    tool: shell\n    with: { command: \"sed -i s/a/b/ f.txt\", cwd: sub }\n    preview: true\n")
    const first = await ccode(sb, ["run", "task.yaml", "--yes", "--json"])
    expect(first.code).toBe(3)
    const request = events(first.stdout).find((e) => e.type === "request.created")!
    expect((request.preview as { changes: unknown[] }).changes).toEqual([{ path: "sub/f.txt", kind: "changed" }])
    expect(readFileSync(join(sb.work, "sub", "f.txt"), "utf8")).toBe("a\n")
  }, 120_000)

  test("at a terminal: the diff is shown, Enter approves, and exactly that change is applied", async () => {
    const sb = box()
    const { code, output } = await atTerminalPressingEnter(sb, "run task.yaml --yes", { cols: 160 })
    expect(output).toContain("+hello there")
    expect(output).toContain("1 added, 1 changed, 1 deleted")
    expect(code).toBe(0)
    expect(readFileSync(join(sb.work, "notes.txt"), "utf8")).toBe(EDITED)
    expect(existsSync(join(sb.work, "old.txt"))).toBe(false)
  }, 60_000)
})

describe("a preview without a sandbox", () => {
  test("is never run straight on the workspace: the step fails and nothing changes", async () => {
    const sb = box()
    const bin = pathWithoutBwrap()
    made.push(bin)
    const result = await ccode(sb, ["run", "task.yaml", "--yes", "--json"], { env: { PATH: bin } })
    expect(result.code).toBe(1)
    const finished = events(result.stdout).filter((e) => e.type === "step.finished")
    expect((finished[0]!.error as { code: string }).code).toBe("PREVIEW_UNAVAILABLE")
    untouched(sb)
  }, 60_000)
})
