// Attack review 5 against the compiled binary, what only the disk says: a workspace's own credential
// files read by a recursive search or a glob (`grep -rn KEY .` and `cat cfg/*` print `.env` and
// `id_rsa` as `cat .env` would), a post-index-change hook that `git status` runs, and a `.ccode/`
// folder below a repository's root, whose repository git still uses. Each attack is first proven real
// with bash in the sandbox, then `policy check` must ask and name the file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { bashIn, ccode, gitIn, policyCheck, sandbox, type Sandbox } from "./harness.ts"

describe("round 5: what lies on disk", () => {
  let sb: Sandbox
  let repo: string
  let mono: string
  const ENV_SECRET = "API_KEY=sk-round5-env-secret"
  const KEY_SECRET = "round5-private-key-secret"
  const git = (cwd: string, ...args: string[]) => void gitIn(sb, cwd, args)
  const bash = (command: string, cwd = sb.work) => bashIn(sb, command, cwd, { GIT_CONFIG_NOSYSTEM: "1" })

  beforeAll(() => {
    sb = sandbox()
    // the workspace's own secrets, where projects keep them
    writeFileSync(join(sb.work, ".env"), `${ENV_SECRET}\n`)
    mkdirSync(join(sb.work, "cfg"))
    writeFileSync(join(sb.work, "cfg", "id_rsa"), `${KEY_SECRET}\n`)
    mkdirSync(join(sb.work, "src"))
    writeFileSync(join(sb.work, "src", "a.ts"), "export const API_KEY = process.env.API_KEY\n")
    // a repository with a committed hooks folder its config names (husky-style) holding post-index-change
    repo = join(sb.root, "repo")
    mkdirSync(join(repo, "githooks"), { recursive: true })
    git(repo, "init", "-q")
    writeFileSync(join(repo, "f"), "hello\n")
    writeFileSync(join(repo, "githooks", "post-index-change"), `#!/bin/sh\ntouch ${join(sb.root, "pwned-hook")}\n`)
    chmodSync(join(repo, "githooks", "post-index-change"), 0o755)
    git(repo, "add", "f")
    git(repo, "commit", "-qm", "init")
    git(repo, "config", "core.hooksPath", "githooks")
    // a monorepo whose package has its own .ccode/: the workspace is the package, git uses the root's repository
    mono = join(sb.root, "mono")
    mkdirSync(join(mono, "pkg", ".ccode"), { recursive: true })
    git(mono, "init", "-q")
    writeFileSync(join(mono, "pkg", "x"), "x\n")
    git(mono, "add", "pkg/x")
    git(mono, "commit", "-qm", "init")
    git(mono, "config", "core.fsmonitor", `touch ${join(sb.root, "pwned-fsmonitor")}; false #`)
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  test("the attacks are real: the searches print the workspace's secrets", () => {
    expect(bash("grep -rn API_KEY .")).toContain(ENV_SECRET)
    expect(bash("cat cfg/*")).toContain(KEY_SECRET)
    expect(bash("cat .*")).toContain(ENV_SECRET)
  })

  test.each([
    ["grep -rn API_KEY .", "/.env"],
    ["grep -rn API_KEY", "/.env"],
    ["grep --recursive -l sk- .", "/.env"],
    ["rg --hidden API_KEY", "/.env"],
    ["rg -uu API_KEY", "/.env"],
    ["rg secret", "/cfg/id_rsa"],
    ["rg secret cfg", "/cfg/id_rsa"],
    ["ag -u API_KEY", "/.env"],
    ["git grep --no-index API_KEY", "/.env"],
    // (credentials.json, also read by c*, is a credential name too)
    ["grep -r secret c*", "/credentials.json"],
    ["cat cfg/*", "/cfg/id_rsa"],
    ["cat .*", "/.env"],
    ["head -n 5 .??*", "/.env"],
    ["wc -l cfg/*", "/cfg/id_rsa"],
    ["shopt -s dotglob; cat *", "/.env"],
  ])("%s asks and names the file it reads", async (command, file) => {
    const v = await policyCheck(sb, command)
    expect(v.decision).toBe("ask")
    expect(v.reason).toContain(file)
  })

  test.each([
    "grep -rn API_KEY src",
    "rg API_KEY src",
    "cat src/*",
    "cat *.md",
    "ls src/*",
  ])("%s (nothing secret where it reads) stays allowed", async (command) => {
    const v = await policyCheck(sb, command)
    expect(v).toMatchObject({ decision: "allow", risk: "safe" })
  })

  test("a search in a workspace without secret files stays allowed", async () => {
    const clean = join(sb.root, "clean")
    mkdirSync(join(clean, "src"), { recursive: true })
    writeFileSync(join(clean, "src", "a.ts"), "foo\n")
    for (const command of ["grep -rn foo .", "rg foo", "cat src/*"]) {
      expect(await policyCheck(sb, command, { cwd: clean })).toMatchObject({ decision: "allow", risk: "safe" })
    }
  })

  test("git status runs the repository's post-index-change hook: proven, then it asks", async () => {
    bash("touch f; git status --short", repo)
    expect(existsSync(join(sb.root, "pwned-hook"))).toBe(true)
    for (const command of ["git status", "git status --short", "git diff", "git diff --stat"]) {
      const v = await policyCheck(sb, command, { cwd: repo })
      expect(v.decision).toBe("ask")
      expect(v.reason).toContain("post-index-change")
    }
  })

  test("a post-index-change hook in .git/hooks counts too; hooks of other names do not", async () => {
    const plain = join(sb.root, "plain")
    mkdirSync(plain)
    git(plain, "init", "-q")
    writeFileSync(join(plain, ".git", "hooks", "pre-commit"), "#!/bin/sh\nexit 0\n")
    expect(await policyCheck(sb, "git status", { cwd: plain })).toMatchObject({ decision: "allow", risk: "safe" })
    writeFileSync(join(plain, ".git", "hooks", "post-index-change"), "#!/bin/sh\nexit 0\n")
    const v = await policyCheck(sb, "git status", { cwd: plain })
    expect(v.decision).toBe("ask")
    expect(v.reason).toContain("post-index-change")
  })

  test("a husky repository (core.hooksPath = .husky/_, commit and push hooks) stays allowed", async () => {
    const husky = join(sb.root, "husky")
    mkdirSync(join(husky, ".husky", "_"), { recursive: true })
    git(husky, "init", "-q")
    for (const name of ["pre-commit", "commit-msg", "post-checkout", "post-merge", "pre-push", "h"]) {
      writeFileSync(join(husky, ".husky", "_", name), "#!/bin/sh\n. \"$(dirname \"$0\")/h\"\n")
    }
    git(husky, "config", "core.hooksPath", ".husky/_")
    for (const command of ["git status", "git diff", "git log --oneline -5"]) {
      expect(await policyCheck(sb, command, { cwd: husky })).toMatchObject({ decision: "allow", risk: "safe" })
    }
  })

  test("git credential fill prints the stored password: proven, then even the ci policy does not allow it", async () => {
    writeFileSync(join(sb.home, ".git-credentials"), "https://dev:round5-stored-password@example.com\n")
    const fill = "printf 'protocol=https\\nhost=example.com\\n\\n' | git -c credential.helper=store credential fill"
    expect(bash(fill)).toContain("round5-stored-password")
    for (const command of ["printf 'protocol=https\\nhost=example.com\\n\\n' | git credential fill", "git credential-store get", "gh auth token"]) {
      const r = await ccode(sb, ["policy", "check", "--json", "--policy", "ci", "--", command])
      const v = JSON.parse(r.stdout) as { decision: string; risk: string; reason: string }
      expect(v.decision).not.toBe("allow")
      expect(v.risk).toBe("high")
      expect(v.reason).toContain("prints a stored credential")
    }
  })

  test("a .ccode/ folder below the repository's root: git still obeys the root's config, proven, then it asks", async () => {
    const pkg = join(mono, "pkg")
    bash("git status --short", pkg)
    expect(existsSync(join(sb.root, "pwned-fsmonitor"))).toBe(true)
    const v = await policyCheck(sb, "git status", { cwd: pkg })
    expect(v.decision).toBe("ask")
    expect(v.reason).toContain("core.fsmonitor")
  })

  test("the same package in a repository whose config runs nothing stays allowed", async () => {
    const tidy = join(sb.root, "tidy")
    mkdirSync(join(tidy, "pkg", ".ccode"), { recursive: true })
    git(tidy, "init", "-q")
    expect(await policyCheck(sb, "git status", { cwd: join(tidy, "pkg") })).toMatchObject({ decision: "allow", risk: "safe" })
  })
})
