// --dry-run decides like the real run (plugins loaded, risk functions, zod defaults), shows the
// warnings a real run would, and exits with the code the run would most likely end with.
import { describe, expect, test } from "bun:test"
import { rmSync } from "node:fs"
import { ccode, events, sandbox } from "./harness.ts"

const PLUGIN = `import { defineTool, z } from "ccode/plugin"
export default defineTool({
  name: "deploy", description: "deploys to a target",
  args: z.object({ target: z.string().default("staging") }),
  risk: ({ target }) => (target === "staging" ? "low" : "high"),
  async run({ target }) { return { text: "deployed " + target } },
})
`

describe("ccode run --dry-run", () => {
  test("a plugin tool is decided by its risk function with zod defaults filled in, as in the real run", async () => {
    const sb = sandbox()
    try {
      sb.file("tools/deploy.ts", PLUGIN)
      sb.file("t.yaml", "version: 1\nplugins: [./tools/deploy.ts]\nsteps:\n  - id: stage\n    tool: deploy\n    with: {}\n  - id: prod\n    tool: deploy\n    with: { target: prod }\n")
      const dry = await ccode(sb, ["run", "t.yaml", "--dry-run", "--json", "--trust"])
      const decisions = events(dry.stdout).filter((e) => e.type === "decision").map((e) => [e.step, e.decision, e.risk])
      expect(decisions).toEqual([["stage", "allow", "low"], ["prod", "ask", "high"]])
      expect(dry.code).toBe(3) // nobody at a terminal to answer the prod deploy
      const real = await ccode(sb, ["run", "t.yaml", "--json", "--trust"])
      expect(real.code).toBe(3)
      expect(events(real.stdout).filter((e) => e.type === "decision").map((e) => [e.decision, e.risk])).toEqual([["allow", "low"], ["ask", "high"]])
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)

  test("exit 5 when a step would be denied, 0 when all would run; untrusted-layer warnings are shown", async () => {
    const sb = sandbox()
    try {
      sb.file(".ccode/policy.yaml", "version: 1\napproval: { mode: yolo }\nrules:\n  - { tool: shell, command: 'rm *', decision: deny }\n")
      sb.file("ok.yaml", "version: 1\nsteps:\n  - run: ls\n")
      sb.file("bad.yaml", "version: 1\nsteps:\n  - run: ls\n  - run: rm notes.txt\n")
      const ok = await ccode(sb, ["run", "ok.yaml", "--dry-run"])
      expect(ok.code).toBe(0)
      expect(ok.stderr).toMatch(/warning: .*approval\.mode: yolo ignored/)
      const bad = await ccode(sb, ["run", "ok.yaml", "bad.yaml", "--dry-run", "--json"])
      expect(bad.code).toBe(5)
      expect(events(bad.stdout).some((e) => e.type === "policy.warning" && String(e.message).includes("approval.mode: yolo ignored"))).toBe(true)
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)

  test("policy check of a trusted plugin tool uses its risk function and defaults; untrusted, it says why", async () => {
    const sb = sandbox()
    try {
      sb.file(".ccode/plugins/deploy.ts", PLUGIN)
      const untrusted = await ccode(sb, ["policy", "check", "--json", "--tool", "deploy", "--args", "{}"])
      expect([untrusted.code, JSON.parse(untrusted.stdout).risk]).toEqual([0, "medium"])
      expect(untrusted.stderr).toContain("the workspace plugin is not trusted")
      expect((await ccode(sb, ["trust", "."])).code).toBe(0)
      const staging = JSON.parse((await ccode(sb, ["policy", "check", "--json", "--tool", "deploy", "--args", "{}"])).stdout)
      expect([staging.decision, staging.risk]).toEqual(["allow", "low"])
      const prod = JSON.parse((await ccode(sb, ["policy", "check", "--json", "--tool", "deploy", "--args", '{"target":"prod"}'])).stdout)
      expect([prod.decision, prod.risk]).toEqual(["ask", "high"])
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)
})
