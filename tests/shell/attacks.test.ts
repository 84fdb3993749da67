// Every attack of tests/shell/attacks-*.yaml gets its decision, risk and reason (the reason names the
// option or construct) under the bundled default policy through decide(); every control stays allow.
import { beforeAll, describe, expect, test } from "bun:test"
import { analyzeShellSync, isPlainCommand, loadParser } from "../../core/shell/index.ts"
import { splitSimpleList } from "../../core/shell/list.ts"
import type { Decision } from "../../core/policy/types.ts"
import { ATTACK_CONTEXT, decideDefault, loadAttacks, loadControls } from "./attacks.ts"

beforeAll(() => loadParser())

describe("attacks under the default policy", () => {
  const attacks = loadAttacks()

  test("the corpus is there and has no duplicates", () => {
    expect(attacks.length).toBeGreaterThan(60)
    expect(new Set(attacks.map((a) => a.cmd)).size).toBe(attacks.length)
  })

  for (const a of attacks) {
    test(`${a.file}: ${a.cmd.replace(/\n/g, "\\n")}`, async () => {
      const d = await decideDefault(a.cmd, a.links)
      expect({ decision: d.decision, risk: d.risk, reasonHolds: d.reason.includes(a.reason), reason: d.reason }).toEqual({
        decision: a.decision, risk: a.risk, reasonHolds: true, reason: d.reason,
      })
      if (a.touches) expect((d as Decision & { paths?: string[] }).paths).toContain(a.touches)
    })
  }
})

describe("everyday read-only commands stay allowed", () => {
  const controls = loadControls()

  test("the controls are there", () => {
    expect(controls.length).toBeGreaterThan(100)
  })

  test("every control is allowed without a prompt", async () => {
    const asked: string[] = []
    for (const cmd of controls) {
      const d = await decideDefault(cmd)
      if (d.decision !== "allow") asked.push(`${cmd} -> ${d.decision} ${d.risk}: ${d.reason}`)
    }
    expect(asked).toEqual([])
  })
})

describe("the fast paths agree with tree-sitter on the attack and control corpora", () => {
  test("every plain command and simple list is read the same both ways", () => {
    const cmds = [...loadAttacks().map((a) => a.cmd), ...loadControls()].filter((c) => isPlainCommand(c) || splitSimpleList(c) !== undefined)
    expect(cmds.length).toBeGreaterThan(100)
    for (const cmd of cmds) {
      const fast = analyzeShellSync(cmd, ATTACK_CONTEXT)
      const slow = analyzeShellSync(cmd, ATTACK_CONTEXT, { fastPath: false })
      expect({ cmd, analysis: fast }).toEqual({ cmd, analysis: slow })
    }
  })
})
