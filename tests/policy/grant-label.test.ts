import { describe, expect, test } from "bun:test"
import { grantLabel } from "../../core/policy/grants.ts"

describe("what a person is shown before granting", () => {
  test("every pattern of a compound grant, in order", () => {
    expect(grantLabel({ tool: "shell", pattern: "git add *", patterns: ["git add *", "git commit *"], source: "user" })).toBe("git add *, git commit *")
  })
  test("a single pattern, and a whole-tool grant said as such", () => {
    expect(grantLabel({ tool: "write_file", pattern: "/w/src/**", source: "user" })).toBe("/w/src/**")
    expect(grantLabel({ tool: "http_request", source: "user" })).toBe("any http_request call")
  })
})
