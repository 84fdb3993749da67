// Path patterns fail closed: risk.paths, workspace.protected and deny/ask path rules from any layer (the
// user's, the team's, the bundled ones) match a touched path that is still a shell glob when some real
// path could match both (`cat ~/.secr*/token` against `~/.secrets/**`), and ignore case (a
// case-insensitive file system, macOS's default, opens ~/.SSH/id_rsa as ~/.ssh/id_rsa); allow rules
// compare exactly. A nested repository's .git is protected like the root one.
import { beforeAll, describe, expect, test } from "bun:test"
import { loadParser } from "../../core/shell/index.ts"
import { decide } from "../../core/policy/decide.ts"
import { globsMeet } from "../../core/policy/globmeet.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"
import type { Policy } from "../../core/policy/types.ts"
import { HOME, WS, layer, policyOf, shellCall } from "./helpers.ts"

beforeAll(() => loadParser())

async function decided(p: Policy, cmd: string) {
  return decide(p, await shellCall(cmd), { grants: [] })
}

const USER = `
risk:
  paths:
    - { path: "~/.secrets/**", level: critical }
    - { path: "**/*.crt", level: high }
    - { path: "/srv/keys/*.key", level: critical }
    - { path: "vault-{prod,staging}.json", level: high }
`

describe("custom risk.paths from a user layer", () => {
  let p: Policy
  beforeAll(async () => {
    p = await policyOf(await layer(USER, { name: "user", file: `${HOME}/.config/ccode/policy.yaml` }))
  })
  const cases: [string, "high" | "critical", string][] = [
    ["cat ~/.secrets/token", "critical", "matches risk.paths \"~/.secrets/**\""],
    ["cat ~/.secr*/token", "critical", "matches risk.paths \"~/.secrets/**\""],
    ["cat ~/.s?crets/token", "critical", "matches risk.paths \"~/.secrets/**\""],
    ["cat ~/.[s]ecrets/deep/token", "critical", "matches risk.paths \"~/.secrets/**\""],
    ["cat ~/.SECRETS/token", "critical", "matches risk.paths \"~/.secrets/**\""],
    ["cat certs/server.crt", "high", "matches risk.paths \"**/*.crt\""],
    ["cat certs/*.crt", "high", "matches risk.paths \"**/*.crt\""],
    ["cat certs/server.c*", "high", "matches risk.paths \"**/*.crt\""],
    ["cat certs/SERVER.CRT", "high", "matches risk.paths \"**/*.crt\""],
    ["cat /srv/keys/a.key", "critical", "matches risk.paths \"/srv/keys/*.key\""],
    ["cat /srv/k*/a.key", "critical", "matches risk.paths \"/srv/keys/*.key\""],
    ["cat /srv/keys/*", "critical", "matches risk.paths \"/srv/keys/*.key\""],
    ["cat vault-prod.json", "high", "matches risk.paths \"vault-{prod,staging}.json\""],
    ["cat vault-*.json", "high", "matches risk.paths \"vault-{prod,staging}.json\""],
  ]
  for (const [cmd, risk, reason] of cases) {
    test(cmd, async () => {
      const d = await decided(p, cmd)
      expect({ decision: d.decision, risk: d.risk, holds: d.reason.includes(reason), reason: d.reason }).toEqual({ decision: "ask", risk, holds: true, reason: d.reason })
    })
  }
  test("globs that cannot reach them stay allowed", async () => {
    for (const cmd of ["cat ~/.config/*.toml", "cat certs/*.txt", "cat /srv/keys/*.txt", "cat src/*.ts", "cat vault-dev.json"]) {
      const d = await decided(p, cmd)
      expect([cmd, d.decision, d.reason]).toEqual([cmd, "allow", d.reason])
    }
  })
})

describe("deny and allow path rules", () => {
  test("a deny path rule ignores case and meets globs; an allow path rule is exact", async () => {
    const p = await policyOf(`
rules:
  - { id: no-secrets, tool: read_file, path: "secrets/**", decision: deny }
  - { id: docs, tool: read_file, path: "docs/**", decision: allow }
`)
    const { prepareCall } = await import("../../core/policy/prepare.ts")
    const read = async (path: string) => decide(p, await prepareCall("read_file", { path }, { cwd: WS, workspace: WS, home: HOME, realpath: (x) => x, tmpDirs: ["/tmp"], toolRisk: "medium" }), { grants: [] })
    expect((await read("SECRETS/a.txt")).decision).toBe("deny")
    expect((await read("secrets/a.txt")).decision).toBe("deny")
    expect((await read("docs/a.md")).rules.map((r) => r.id)).toContain("docs")
    expect((await read("DOCS/a.md")).rules.map((r) => r.id)).not.toContain("docs")
  })
})

describe("nested repositories", () => {
  const p = bundledPolicy("default")
  for (const cmd of ["echo x > sub/.git/hooks/pre-commit", "echo '[core]' >> sub/.git/config", "cp evil.sh vendor/lib/.git/hooks/post-checkout", "echo x > sub/.GIT/config", "rm -rf sub/.git", "echo x > sub/.ccode/policy.yaml", "cd sub && echo x > .git/hooks/pre-push", "echo x > sub/.g*/hooks/pre-commit"]) {
    test(cmd, async () => {
      const d = await decided(p, cmd)
      expect({ decision: d.decision, risk: d.risk, holds: d.reason.includes("protected path") }).toEqual({ decision: "ask", risk: "critical", holds: true })
    })
  }
  for (const cmd of ["git --work-tree=$HOME checkout HEAD -- .bashrc", "git -C ~ checkout .bashrc", "git --git-dir=.git --work-tree=/etc checkout -- hosts"]) {
    test(`${cmd} writes outside the workspace (ci auto-approves medium: it must not)`, async () => {
      const d = await decided(bundledPolicy("ci"), cmd)
      expect({ decision: d.decision, holds: d.reason.includes("outside the workspace") }).toEqual({ decision: "ask", holds: true })
    })
  }
  test("a nested repository's read-only commands stay allowed", async () => {
    for (const cmd of ["git -C sub status", "cd sub && git log --oneline", "cat sub/.git/HEAD"]) expect([cmd, (await decided(p, cmd)).decision]).toEqual([cmd, "allow"])
  })
})

describe("globsMeet", () => {
  test("segments, **, classes, braces and case", () => {
    expect(globsMeet("/h/.s*/x", "/h/.secrets/**", false)).toBe(true)
    expect(globsMeet("/h/src/*.ts", "/**/id_rsa*", false)).toBe(false) // only in a made-up id_rsa.ts
    expect(globsMeet("/h/.env.l*", "/**/.env*", false)).toBe(true)
    expect(globsMeet("/h/server.c*", "/**/*.crt", false)).toBe(true)
    expect(globsMeet("/h/src/*", "/**/*.pem", false)).toBe(false) // the directory is what it lists
    expect(globsMeet("/srv/*/a.key", "/srv/keys/*.key", false)).toBe(true)
    expect(globsMeet("/h/.c*/x", "/h/.secrets/**", false)).toBe(false)
    expect(globsMeet("/h/*/x", "/h/.secrets/**", false)).toBe(true) // shopt -s dotglob may be on
    expect(globsMeet("/h/[[:punct:]]secrets/x", "/h/.secrets/**", false)).toBe(true) // a POSIX class is any character
    expect(globsMeet("/h/.[]s]ecrets/x", "/h/.secrets/**", false)).toBe(true) // `]` first is a member
    expect(globsMeet("/h/src/*.ts", "/**/.env*", false)).toBe(false)
    expect(globsMeet("/h/.*/x", "/h/.secrets/**", false)).toBe(true)
    expect(globsMeet("/a/b/c/d.pem", "/**/*.pem", false)).toBe(true)
    expect(globsMeet("/a/*.p?m", "/**/*.pem", false)).toBe(true)
    expect(globsMeet("/a/*.txt", "/**/*.pem", false)).toBe(false)
    expect(globsMeet("/a/[!x]ey", "/a/key", false)).toBe(true)
    expect(globsMeet("/a/[!k]ey", "/a/key", false)).toBe(false)
    expect(globsMeet("/a/v-*.json", "/a/v-{prod,dev}.json", false)).toBe(true)
    expect(globsMeet("/A/KEY", "/a/key", true)).toBe(true)
    expect(globsMeet("/A/KEY", "/a/key", false)).toBe(false)
    expect(globsMeet("/a", "/a/**", false)).toBe(true)
  })
})
