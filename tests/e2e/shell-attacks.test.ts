// A sample of the shell attack and control corpora through the compiled binary: `ccode policy check
// --json` must reach the same decision, risk and reason as decide() does in tests/shell/attacks.test.ts.
import { describe, expect, test } from "bun:test"
import { rmSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { ccode, sandbox } from "./harness.ts"
import { loadAttacks, loadControls } from "../shell/attacks.ts"

describe("ccode policy check on the shell attack corpus", () => {
  test("a sample of attacks is decided as the corpus says, and everyday commands are allowed", async () => {
    const sb = sandbox()
    try {
      // a third of the attacks and a fifth of the controls, picked by a hash of the command's text: the
      // same entries whatever is added, renamed or reordered (the whole corpora run through decide());
      // symlink cases need their links: the test below makes real ones
      const picked = (cmd: string, every: number) => Number(Bun.hash(cmd) % BigInt(every)) === 0
      // entries whose reason names the corpus' home (/home/dev) depend on where home is relative to the
      // workspace, which the sandbox lays out otherwise: tests/shell/attacks.test.ts covers them
      const attacks = loadAttacks().filter((a) => picked(a.cmd, 3) && !a.links && !a.reason.includes("/home/dev"))
      const controls = loadControls().filter((cmd) => picked(cmd, 5))
      const wrong: string[] = []
      for (const a of attacks) {
        const r = await ccode(sb, ["policy", "check", "--json", "--", a.cmd])
        const d = JSON.parse(r.stdout)
        const reasonOk = String(d.reason).includes(a.reason)
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

  test("a write to a workspace file that is a symlink to ~/.bashrc is judged as a write to ~/.bashrc", async () => {
    const sb = sandbox()
    try {
      writeFileSync(join(sb.home, ".bashrc"), "# rc\n")
      symlinkSync(join(sb.home, ".bashrc"), join(sb.work, "notes.txt"))
      sb.file("plain.txt", "x\n")
      const linked = JSON.parse((await ccode(sb, ["policy", "check", "--json", "--", "echo x > notes.txt"])).stdout)
      expect([linked.decision, linked.risk]).toEqual(["ask", "critical"])
      expect(linked.reason).toContain("shell startup file")
      const sorted = JSON.parse((await ccode(sb, ["policy", "check", "--json", "--", "sort -o notes.txt plain.txt"])).stdout)
      expect([sorted.decision, sorted.risk]).toEqual(["ask", "critical"])
      const plain = JSON.parse((await ccode(sb, ["policy", "check", "--json", "--", "echo x > plain.txt"])).stdout)
      expect([plain.decision, plain.risk]).toEqual(["ask", "medium"])
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)
})
