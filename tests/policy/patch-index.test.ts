// GNU patch names the file a diff writes by its `Index:` line when the ---/+++ names are empty: the
// Index name is judged as a write (as it stands and after -pN), and a header that names nothing with no
// Index line leaves the targets unknown. Real diffs in a temp folder, decided under the bundled `ci` policy.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"
import { diffTargets } from "../../core/policy/archives.ts"

describe("patch's Index: line names the file it writes", () => {
  let root: string, ws: string, home: string
  beforeAll(async () => {
    await loadParser()
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-patchidx-")))
    ws = join(root, "ws")
    home = join(root, "home")
    for (const d of [ws, home]) mkdirSync(d, { recursive: true })
    const hunk = "@@ -0,0 +1,2 @@\n+[core]\n+\tfsmonitor = echo PWNED; false\n"
    writeFileSync(join(ws, "idx2.diff"), `Index: .git/config\n--- \n+++ \n${hunk}`)
    writeFileSync(join(ws, "idx.diff"), `Index: .git/hooks/post-commit\n--- \n+++ \n${hunk}`)
    writeFileSync(join(ws, "noname.diff"), `--- \n+++ \n${hunk}`)
    writeFileSync(join(ws, "plainidx.diff"), `Index: src/a.ts\n--- src/a.ts\n+++ src/a.ts\n${hunk}`)
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  const ci = async (command: string) => {
    const policy = bundledPolicy("ci")
    const call = await prepareCall("shell", { command }, { cwd: ws, workspace: ws, home, tmpDirs: ["/nonexistent-tmp"], policy })
    return decide(policy, call, { grants: [] })
  }

  test("the lister reads Index: names and reports a header without a name", () => {
    expect(diffTargets(join(ws, "idx2.diff"))).toEqual({ names: [".git/config"], whole: [".git/config"] })
    expect("unknown" in diffTargets(join(ws, "noname.diff"))).toBe(true)
  })

  test("a diff naming .git/config or a hook only by Index: asks critical; one naming nothing asks high", async () => {
    for (const [command, named] of [["patch -p0 -i idx2.diff", ".git/config"], ["patch < idx2.diff", ".git/config"], ["patch -p0 -i idx.diff", ".git/hooks/post-commit"], ["patch -p1 -i idx.diff", ".git/hooks/post-commit"]] as const) {
      const d = await ci(command)
      expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes(named) }).toEqual({ command, decision: "ask", risk: "critical", named: true })
    }
    const d = await ci("patch -p0 -i noname.diff")
    expect({ decision: d.decision, risk: d.risk, named: d.reason.includes("names no file") }).toEqual({ decision: "ask", risk: "high", named: true })
  })

  test("control: an ordinary diff with an Index: line stays allowed under ci", async () => {
    const d = await ci("patch -p0 -i plainidx.diff")
    expect(d.decision).toBe("allow")
  })
})
