// A git repository embedded in the workspace (a bare repository's files committed or unpacked like any
// others, or a folder with its own .git) is not the workspace's repository: git started inside it obeys
// ITS config. Attack first: a bare repository whose config names a gpg.program and turns on
// log.showSignature really runs that program on `git -C evil.git log`; ccode must not call it safe.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { chmodSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { policyCheck, sandbox, type Sandbox } from "./harness.ts"

function git(cwd: string, args: string[], stdin?: string): string {
  const r = Bun.spawnSync(["git", ...args], { cwd, stdin: stdin === undefined ? "ignore" : new Blob([stdin]), env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" } })
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`)
  return r.stdout.toString().trim()
}

/** A bare repository with one commit carrying a (bogus) signature, and a config that verifies
 *  signatures with `program` whenever the log is shown. */
function evilBare(dir: string, program: string): void {
  git(join(dir, ".."), ["init", "-q", "--bare", dir])
  const tree = git(dir, ["mktree"], "")
  const commit = `tree ${tree}\nauthor a <a@a> 1700000000 +0000\ncommitter a <a@a> 1700000000 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n x\n -----END PGP SIGNATURE-----\n\nmsg\n`
  const id = git(dir, ["hash-object", "-t", "commit", "-w", "--stdin"], commit)
  git(dir, ["update-ref", "refs/heads/main", id])
  git(dir, ["symbolic-ref", "HEAD", "refs/heads/main"])
  git(dir, ["config", "gpg.program", program])
  git(dir, ["config", "log.showSignature", "true"])
}

describe("git in a repository embedded in the workspace", () => {
  let sb: Sandbox
  let marker: string
  beforeAll(() => {
    sb = sandbox()
    git(sb.work, ["init", "-q"])
    mkdirSync(join(sb.work, "src", "deep"), { recursive: true })
    mkdirSync(join(sb.work, "fixtures"))
    marker = join(sb.root, "ran")
    const program = join(sb.root, "pwn.sh")
    writeFileSync(program, `#!/bin/sh\necho ran > '${marker}'\n`)
    chmodSync(program, 0o755)
    evilBare(join(sb.work, "fixtures", "evil.git"), program)
    mkdirSync(join(sb.work, "vendor", "lib"), { recursive: true })
    git(join(sb.work, "vendor", "lib"), ["init", "-q"])
    symlinkSync(join(sb.work, "fixtures", "evil.git"), join(sb.work, "innocent"))
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  test("the attack is real: git log inside the bare repository runs its gpg.program", () => {
    rmSync(marker, { force: true })
    git(sb.work, ["-C", "fixtures/evil.git", "log"])
    expect(existsSync(marker)).toBe(true)
    rmSync(marker, { force: true })
  })

  const check = (command: string, cwd?: string) => policyCheck(sb, command, { cwd })

  test.each([
    "git -C fixtures/evil.git log",
    "cd fixtures/evil.git && git log",
    "cd fixtures; cd evil.git; git log",
    "git -C fixtures -C evil.git log",
    "git -C fixtures/evil.git/refs log",
    "git -C innocent log",
    "git -C vendor/lib log",
    "cd vendor/lib && git show HEAD",
    "cp -r fixtures/evil.git copy.git && git -C copy.git log",
    "pushd fixtures/evil.git && git log",
    "env -C fixtures/evil.git git log",
    "(cd fixtures/evil.git; git log)",
    "sh -c 'cd fixtures/evil.git; git log'",
    "find fixtures -name '*.git' -execdir git log \\;",
  ])("%s is not safe", async (command) => {
    const d = await check(command)
    expect(d.decision).not.toBe("allow")
    expect(["medium", "high", "critical"]).toContain(d.risk)
  })

  test("started inside the embedded repository (the host's cwd is there), plain git log is not safe either", async () => {
    const d = await check("git log", join(sb.work, "fixtures", "evil.git"))
    expect(d.decision).toBe("ask")
    expect(d.reason).toContain("not the workspace's own")
  })

  test.each(["git log", "git status", "git -C src log", "cd src/deep && git diff", "git -C . status"])("%s in the workspace's own repository stays allowed", async (command) => {
    const d = await check(command)
    expect(d.decision).toBe("allow")
    expect(d.risk).toBe("safe")
  })
})
