// A sample of the shell attack and control corpora through the compiled binary: `ccode policy check
// --json` must reach the same decision, risk and reason as decide() does in tests/shell/attacks.test.ts.
import { describe, expect, test } from "bun:test"
import { rmSync } from "node:fs"
import { ccode, sandbox } from "./harness.ts"
import { loadAttacks, loadControls } from "../shell/attacks.ts"

describe("ccode policy check on the shell attack corpus", () => {
  test("a sample of attacks is decided as the corpus says, and everyday commands are allowed", async () => {
    const sb = sandbox()
    try {
      // every third attack of each file, and every fifth control: the whole corpora run through decide()
      const attacks = loadAttacks().filter((_, i) => i % 3 === 0)
      const controls = loadControls().filter((_, i) => i % 5 === 0)
      const wrong: string[] = []
      for (const a of attacks) {
        const r = await ccode(sb, ["policy", "check", "--json", "--", a.cmd])
        const d = JSON.parse(r.stdout)
        // reasons naming the corpus' home or workspace do not apply in the sandbox's
        const reasonOk = a.reason.includes("/home/dev") || String(d.reason).includes(a.reason)
        if (d.decision !== a.decision || d.risk !== a.risk || !reasonOk) wrong.push(`${a.cmd}: want ${a.decision} ${a.risk} "${a.reason}", got ${d.decision} ${d.risk} ${d.reason}`)
      }
      for (const cmd of controls) {
        const d = JSON.parse((await ccode(sb, ["policy", "check", "--json", "--", cmd])).stdout)
        if (d.decision !== "allow") wrong.push(`${cmd}: want allow, got ${d.decision} ${d.risk} ${d.reason}`)
      }
      expect(attacks.length).toBeGreaterThan(20)
      expect(wrong).toEqual([])
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 240_000)
})
