// A deny (or ask) rule that words known only at run time could meet: `touch $(..)`, `touch "$F"`,
// `xargs touch` cannot be told apart from the denied command, so no allow rule or yolo mode approves
// them; the words that are known still have to fit the pattern.
import { describe, expect, test } from "bun:test"
import { decide } from "../../core/policy/decide.ts"
import { layer, policyOf, shellCall } from "./helpers.ts"

const none = { grants: [] }
const managed = "rules:\n  - id: no-forbidden\n    tool: shell\n    command: 'touch forbidden*'\n    decision: deny\n"
const repo = "approval:\n  mode: yolo\nrules:\n  - id: touch-ok\n    tool: shell\n    command: 'touch *'\n    decision: allow\n"

describe("deny rules and words known only at run time", () => {
  test("a run-time word that could be the denied one asks, under a trusted allow in yolo mode", async () => {
    const policy = await policyOf(await layer(managed, { name: "managed", file: "/etc/ccode/managed.yaml" }), repo)
    for (const cmd of ["touch $(echo forbidden.txt)", "touch \"$F\"", "echo forbidden.txt | xargs touch", "find . -exec touch {} \\;"]) {
      const d = decide(policy, await shellCall(cmd), none)
      expect([cmd, d.decision]).toEqual([cmd, "ask"])
      expect(d.reason).toContain("no-forbidden")
    }
  })

  test("the denied command itself is denied, and known words that do not fit stay allowed", async () => {
    const policy = await policyOf(await layer(managed, { name: "managed", file: "/etc/ccode/managed.yaml" }), repo)
    expect(decide(policy, await shellCall("touch forbidden.txt"), none).decision).toBe("deny")
    expect(decide(policy, await shellCall("touch ok.txt"), none).decision).toBe("allow")
    // the program is known and is not the rule's: run-time words cannot make it so
    expect(decide(policy, await shellCall("echo $(date)"), none).decision).toBe("allow")
  })
})
