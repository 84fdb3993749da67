// A thread's environment (/proc/PID/task/TID/environ, /proc/thread-self/environ) is judged as high as
// the process's under every bundled policy.
import { describe, expect, test } from "bun:test"
import { bundledPolicy } from "../../core/policy/bundled.ts"
import { decideUnder } from "./attacks.ts"

describe("thread environ spellings under the bundled policies", () => {
  for (const name of ["default", "ci", "strict"] as const) {
    test.each(["cat /proc/*/task/*/environ", "cat /proc/1/task/1/environ", "cat /proc/thread-self/environ", "cat /dev/fd/../task/*/environ"])(`${name}: %s is high`, async (cmd) => {
      const d = await decideUnder(bundledPolicy(name), cmd)
      expect(d.risk).toBe("high")
      expect(d.decision).toBe("ask")
      expect(d.reason).toContain("environ")
    })
  }
})
