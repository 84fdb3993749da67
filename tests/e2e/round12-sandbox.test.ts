// Review 12A through the compiled binary: a sandboxed step must not plant code that the user's later
// host commands run: a program in a folder on ccode's PATH inside the home (~/.cargo/bin/git), python's
// usercustomize.py, a hook in the folder core.hooksPath names (husky), a git config the repository includes.
// Each case first shows the planted file really runs on the host, then that the step is blocked.
import { describe, expect, test } from "bun:test"
import { existsSync, mkdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import { bashIn, ccode, gitIn, type Sandbox } from "./harness.ts"
import { boxes } from "./boxes.ts"

const HAS_BWRAP = Bun.which("bwrap") !== null
const box = boxes()

const task = "version: 1\nsteps:\n  - id: a\n    run: sh plant.sh\n"
// (--trust: an untrusted task never gets the home as its workspace)
const runIn = (sb: Sandbox, env: Record<string, string>) => ccode(sb, ["run", "t.yaml", "--yes", "--trust", "--json", "--sandbox", "required"], { env: { HOME: sb.work, ...env } })

describe.skipIf(!HAS_BWRAP)("review 12A: host code in a writable root", () => {
  test("home = workspace: ~/.cargo/bin/git runs at the next `git status`; on ccode's PATH the step cannot plant it", async () => {
    const sb = box()
    mkdirSync(join(sb.work, ".cargo", "bin"), { recursive: true })
    sb.file("plant.sh", `printf '#!/bin/sh\\necho ATK-CARGO-BIN\\n' > "$HOME/.cargo/bin/git"; chmod +x "$HOME/.cargo/bin/git"\n`)
    sb.file("t.yaml", task)
    const cargo = join(sb.work, ".cargo", "bin")
    // not on ccode's PATH: written, and a host shell whose PATH has it runs it in place of git
    const open = await runIn(sb, {})
    expect(open.code).toBe(0)
    expect(bashIn(sb, "git status", sb.work, { PATH: `${cargo}:${sb.env.PATH}` })).toContain("ATK-CARGO-BIN")
    rmSync(join(cargo, "git"))
    // on ccode's PATH (as on this machine, ~/.cargo/bin first): read-only inside the sandbox
    const shut = await runIn(sb, { PATH: `${cargo}:${sb.env.PATH}` })
    expect(shut.code).not.toBe(0)
    expect(shut.stdout).toContain("SANDBOX_BLOCKED")
    expect(existsSync(join(cargo, "git"))).toBe(false)
  }, 90_000)

  test("home = workspace: python's usercustomize.py in the user site-packages is not planted", async () => {
    const sb = box()
    const site = join(sb.work, ".local", "lib", "python3.11", "site-packages")
    mkdirSync(site, { recursive: true })
    sb.file("plant.sh", `echo 'print("ATK-USERCUSTOMIZE")' > "${site}/usercustomize.py"\n`)
    sb.file("t.yaml", task)
    const run = await runIn(sb, {})
    expect(run.code).not.toBe(0)
    expect(run.stdout).toContain("SANDBOX_BLOCKED")
    expect(existsSync(join(site, "usercustomize.py"))).toBe(false)
  }, 60_000)

  test("core.hooksPath = .husky/_: a hook there runs at the next commit; the step cannot write it, nor make the missing folder", async () => {
    const sb = box()
    gitIn(sb, sb.work, ["init", "-q"])
    sb.file("plant.sh", "mkdir -p .husky/_ && printf '#!/bin/sh\\necho ATK-HUSKY >&2\\n' > .husky/_/pre-commit && chmod +x .husky/_/pre-commit\n")
    sb.file("t.yaml", task)
    // before the repository names the folder, the step may write there; once named, git runs it
    const open = await ccode(sb, ["run", "t.yaml", "--yes", "--json", "--sandbox", "required"])
    expect(open.code).toBe(0)
    gitIn(sb, sb.work, ["config", "core.hooksPath", ".husky/_"])
    expect(bashIn(sb, "git -c user.name=t -c user.email=t@e commit -q --allow-empty -m t", sb.work)).toContain("ATK-HUSKY")
    rmSync(join(sb.work, ".husky"), { recursive: true })
    // named and missing: the folder the step makes is moved aside and the step refused
    const missing = await ccode(sb, ["run", "t.yaml", "--yes", "--json", "--sandbox", "required"])
    expect(missing.code).not.toBe(0)
    expect(missing.stdout).toContain("SANDBOX_BLOCKED")
    expect(existsSync(join(sb.work, ".husky", "_", "pre-commit"))).toBe(false)
    // named and there: read-only
    rmSync(join(sb.work, ".husky"), { recursive: true, force: true })
    mkdirSync(join(sb.work, ".husky", "_"), { recursive: true })
    const there = await ccode(sb, ["run", "t.yaml", "--yes", "--json", "--sandbox", "required"])
    expect(there.code).not.toBe(0)
    expect(existsSync(join(sb.work, ".husky", "_", "pre-commit"))).toBe(false)
  }, 120_000)

  test("include.path = ../.gitconfig: the included file's core.fsmonitor runs at git status; the step cannot write it", async () => {
    const sb = box()
    gitIn(sb, sb.work, ["init", "-q"])
    sb.file("plant.sh", "printf '[core]\\n\\tfsmonitor = \"echo ATK-INCLUDE >&2; false\"\\n' > .gitconfig\n")
    sb.file("t.yaml", task)
    // not yet included: written, and once included git status runs what it names
    const open = await ccode(sb, ["run", "t.yaml", "--yes", "--json", "--sandbox", "required"])
    expect(open.code).toBe(0)
    gitIn(sb, sb.work, ["config", "include.path", "../.gitconfig"])
    expect(bashIn(sb, "git status --short", sb.work)).toContain("ATK-INCLUDE")
    rmSync(join(sb.work, ".gitconfig"))
    const missing = await ccode(sb, ["run", "t.yaml", "--yes", "--json", "--sandbox", "required"])
    expect(missing.code).not.toBe(0)
    expect(missing.stdout).toContain("SANDBOX_BLOCKED")
    expect(existsSync(join(sb.work, ".gitconfig"))).toBe(false)
  }, 120_000)
})
