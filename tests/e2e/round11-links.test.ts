// Review 11E through the compiled binary: a link further down a read-only path's chain, a hidden
// credential folder reached through a link in a home that is the workspace, and a task's `env:` that
// points the agent sockets elsewhere. None may change what the user's host tools run or un-hide a socket.
import { describe, expect, test } from "bun:test"
import { existsSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { ccode } from "./harness.ts"
import { boxes } from "./boxes.ts"

const HAS_BWRAP = Bun.which("bwrap") !== null
const box = boxes()

describe.skipIf(!HAS_BWRAP)("review 11E: links and sockets", () => {
  test("the second link of .git/hooks -> ../.githooks -> tools/hooks retargeted: blocked, put back, the hook is the user's", async () => {
    const sb = box()
    mkdirSync(join(sb.work, ".git"))
    sb.file("tools/hooks/pre-commit", "#!/bin/sh\necho legit\n")
    symlinkSync("../.githooks", join(sb.work, ".git", "hooks"))
    symlinkSync("tools/hooks", join(sb.work, ".githooks"))
    sb.file("swap.sh", "mkdir -p evilhooks\nprintf '#!/bin/sh\\necho evil\\n' > evilhooks/pre-commit\nrm .githooks\nln -s evilhooks .githooks\n")
    sb.file("t.yaml", "version: 1\nsteps:\n  - id: swap\n    run: sh swap.sh\n")
    const run = await ccode(sb, ["run", "t.yaml", "--yes", "--json", "--sandbox", "required"])
    expect(run.code).not.toBe(0)
    expect(run.stdout).toContain("SANDBOX_BLOCKED")
    expect(readlinkSync(join(sb.work, ".githooks"))).toBe("tools/hooks")
    expect(readFileSync(join(sb.work, ".git", "hooks", "pre-commit"), "utf8")).toContain("legit")
  }, 60_000)

  test("home = workspace, ~/.kube -> dotfiles/kube swapped for the step's kubeconfig: blocked, the link put back", async () => {
    const sb = box()
    sb.file("dotfiles/kube/config", "FAKESECRET-kubeconfig\n")
    symlinkSync("dotfiles/kube", join(sb.work, ".kube"))
    sb.file("w.sh", "rm .kube && mkdir .kube && echo 'users: [{user: {exec: {command: sh}}}]' > .kube/config\n")
    sb.file("t.yaml", "version: 1\nsteps:\n  - id: w\n    run: sh w.sh\n")
    const run = await ccode(sb, ["run", "t.yaml", "--yes", "--trust", "--json", "--sandbox", "required"], { env: { HOME: sb.work } }) // (--trust: an untrusted task never gets the home as its workspace)
    expect(run.stdout).toContain("SANDBOX_BLOCKED")
    expect(readlinkSync(join(sb.work, ".kube"))).toBe("dotfiles/kube")
    expect(readFileSync(join(sb.work, ".kube", "config"), "utf8")).toBe("FAKESECRET-kubeconfig\n")
  }, 60_000)

  test("home = workspace, a missing ~/.kube the step creates is moved aside", async () => {
    const sb = box()
    sb.file("w.sh", "mkdir -p .kube && echo 'users: []' > .kube/config\n")
    sb.file("t.yaml", "version: 1\nsteps:\n  - id: w\n    run: sh w.sh\n")
    const run = await ccode(sb, ["run", "t.yaml", "--yes", "--trust", "--json", "--sandbox", "required"], { env: { HOME: sb.work } })
    expect(run.stdout).toContain("SANDBOX_BLOCKED")
    expect(existsSync(join(sb.work, ".kube"))).toBe(false)
  }, 60_000)

  test("a task's env: pointing SSH_AUTH_SOCK and XDG_RUNTIME_DIR elsewhere leaves the real ones hidden", async () => {
    const sb = box()
    const agent = join(sb.root, "agent", "agent.sock")
    const runtime = join(sb.root, "runtime")
    mkdirSync(join(sb.root, "agent"))
    mkdirSync(runtime)
    writeFileSync(agent, "FAKESECRET-agent\n")
    writeFileSync(join(runtime, "bus"), "FAKESECRET-runtime\n")
    sb.file("r.sh", `cat ${agent} ${join(runtime, "bus")} > leak.txt 2>&1 || true\n`)
    sb.file("t.yaml", `version: 1\nenv:\n  SSH_AUTH_SOCK: ${join(sb.work, "none")}\n  XDG_RUNTIME_DIR: /nonexistent\nsteps:\n  - id: r\n    run: sh r.sh\n`)
    await ccode(sb, ["run", "t.yaml", "--yes", "--json", "--sandbox", "required"], { env: { SSH_AUTH_SOCK: agent, XDG_RUNTIME_DIR: runtime } })
    const leak = readFileSync(join(sb.work, "leak.txt"), "utf8")
    expect(leak).not.toContain("FAKESECRET")
  }, 60_000)
})
