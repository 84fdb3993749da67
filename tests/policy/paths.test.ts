import { describe, expect, test } from "bun:test"
import { pathPatternRegex } from "../../core/policy/paths.ts"
import { toolMatcher } from "../../core/policy/glob.ts"

const WS = "/work/repo"
const HOME = "/home/dev"
const matches = (pattern: string, path: string) => pathPatternRegex(pattern, WS, HOME).test(path)

describe("path patterns", () => {
  test("a pattern without / matches a file name at any depth, dot-files included", () => {
    expect(matches(".env*", "/work/repo/.env")).toBe(true)
    expect(matches(".env*", "/work/repo/app/.env.local")).toBe(true)
    expect(matches(".env*", "/elsewhere/.envrc")).toBe(true)
    expect(matches(".env*", "/work/repo/env.txt")).toBe(false)
    expect(matches("*.pem", "/etc/ssl/server.pem")).toBe(true)
  })

  test("a pattern with / is relative to the workspace root; dir/** matches the dir itself", () => {
    expect(matches(".git/**", "/work/repo/.git")).toBe(true)
    expect(matches(".git/**", "/work/repo/.git/hooks/pre-commit")).toBe(true)
    expect(matches(".git/**", "/work/repo/sub/.git/config")).toBe(false)
    expect(matches("infra/prod/*.tf", "/work/repo/infra/prod/main.tf")).toBe(true)
    expect(matches("infra/prod/*.tf", "/work/repo/infra/prod/x/main.tf")).toBe(false)
    expect(matches("./src/**", "/work/repo/src/a.ts")).toBe(true)
  })

  test("~/ is the home directory and / is absolute", () => {
    expect(matches("~/.ssh/**", "/home/dev/.ssh/id_ed25519")).toBe(true)
    expect(matches("~/.ssh/**", "/work/repo/.ssh/x")).toBe(false)
    expect(matches("/etc/**", "/etc/hosts")).toBe(true)
  })

  test("** crosses directories, * does not, braces and classes work", () => {
    expect(matches("src/**/test/*.ts", "/work/repo/src/test/a.ts")).toBe(true)
    expect(matches("src/**/test/*.ts", "/work/repo/src/a/b/test/a.ts")).toBe(true)
    expect(matches("src/*.{ts,js}", "/work/repo/src/a.js")).toBe(true)
    expect(matches("src/[ab].ts", "/work/repo/src/c.ts")).toBe(false)
  })
})

describe("tool patterns", () => {
  test("names, lists and globs", () => {
    const match = toolMatcher(["shell", "mcp:github/*"])
    expect(match("shell")).toBe(true)
    expect(match("mcp:github/create_issue")).toBe(true)
    expect(match("mcp:gitlab/create_issue")).toBe(false)
    expect(toolMatcher(["*"])("mcp:x/y")).toBe(true)
  })
})
