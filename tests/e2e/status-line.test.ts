// The live status line at a terminal redraws in place within the terminal's width; without a
// terminal there is no status line at all.
import { expect, test } from "bun:test"
import { rmSync } from "node:fs"
import { binary, ccode, sandbox } from "./harness.ts"

const TASK = `version: 1
steps:
  - id: slowstep
    run: "sleep 1.2; echo ${"very-long-".repeat(20)}done"
`

test("at a 40-column terminal every status redraw fits in 39 columns", async () => {
  const sb = sandbox()
  try {
    sb.file("t.yaml", TASK)
    const cmd = `stty cols 40; '${await binary()}' run t.yaml`
    const proc = Bun.spawn(["script", "-qfec", cmd, "/dev/null"], { cwd: sb.work, env: { ...sb.env, NO_COLOR: "" , TERM: "xterm", CCODE_PANEL: "0" }, stdout: "pipe", stderr: "pipe" })
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited])
    expect(code).toBe(0)
    const redraws = out.split("\r\x1b[2K").slice(1).map((s) => s.split(/[\r\n]/)[0]!).filter((s) => s.includes("slowstep") && s.includes("▶"))
    expect(redraws.length).toBeGreaterThan(1)
    for (const r of redraws) expect([...r.replace(/\x1b\[[0-9;]*m/g, "")].length).toBeLessThanOrEqual(39)
  } finally {
    rmSync(sb.root, { recursive: true, force: true })
  }
}, 60_000)

test("without a terminal there is no status line", async () => {
  const sb = sandbox()
  try {
    sb.file("t.yaml", TASK)
    const r = await ccode(sb, ["run", "t.yaml"])
    expect(r.code).toBe(0)
    expect(r.stderr).toContain("✓ slowstep")
    expect(r.stderr.includes("\r") || r.stderr.includes("\x1b[2K") || r.stderr.includes("▶")).toBe(false)
  } finally {
    rmSync(sb.root, { recursive: true, force: true })
  }
}, 60_000)
