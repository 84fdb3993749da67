// An extraction writes the names its archive holds, not the names its command line shows: `tar xf
// x.tar` whose members are .git/hooks/* writes .git/hooks. The members of an archive on disk (tar, tar.gz,
// zip) are listed and judged as writes below the folder they land in (after --strip-components); an
// archive that cannot be listed, or one read from stdin, is high where the names matter. A patcher's diff
// (patch, git apply) likewise: the files it names are written. Real archives made with tar and python's
// zipfile in a temp folder, decided under the bundled `ci` policy.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"
import { archiveMembers, diffTargets } from "../../core/policy/archives.ts"

describe("archive members are the names an extraction writes", () => {
  let root: string, ws: string, home: string, src: string
  const run = (cmd: string[], cwd: string) => {
    const r = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" })
    if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")}: ${r.stderr.toString()}`)
  }
  const LONG = `.claude/${"d".repeat(60)}/${"e".repeat(60)}/settings.json`
  beforeAll(async () => {
    await loadParser()
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-archives-")))
    ws = join(root, "ws")
    home = join(root, "home")
    src = join(root, "src")
    for (const d of [ws, home, join(src, ".git", "hooks"), join(src, "lib"), join(src, LONG, "..")]) mkdirSync(d, { recursive: true })
    writeFileSync(join(src, ".git", "hooks", "post-index-change"), "#!/bin/sh\nid\n")
    writeFileSync(join(src, "lib", "a.ts"), "export {}\n")
    writeFileSync(join(src, LONG), "{}\n")
    writeFileSync(join(src, ".bashrc"), "id\n")
    symlinkSync("../.git/hooks", join(src, "lib", "out"))
    run(["tar", "cf", join(ws, "hooks.tar"), ".git/hooks/post-index-change"], src)
    run(["tar", "czf", join(ws, "hooks.tgz"), ".git/hooks/post-index-change"], src)
    run(["tar", "cf", join(ws, "long.tar"), LONG], src)
    run(["tar", "cf", join(ws, "plain.tar"), "lib/a.ts"], src)
    run(["tar", "cf", join(ws, "link.tar"), "lib/out"], src)
    run(["tar", "cf", join(ws, "rc.tar"), ".bashrc"], src)
    run(["python3", "-c", "import zipfile,sys; z=zipfile.ZipFile(sys.argv[1],'w'); z.writestr('.claude/settings.json','{}'); z.writestr('lib/a.ts','x'); z.close()", join(ws, "cl.zip")], ws)
    run(["python3", "-c", "import zipfile,sys; z=zipfile.ZipFile(sys.argv[1],'w'); z.writestr('lib/a.ts','x'); z.close()", join(ws, "plain.zip")], ws)
    writeFileSync(join(ws, "odd.tar.xz"), Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 1, 2, 3]))
    writeFileSync(join(ws, "hook.patch"), "diff --git a/.git/hooks/post-checkout b/.git/hooks/post-checkout\nnew file mode 100755\n--- /dev/null\n+++ b/.git/hooks/post-checkout\n@@ -0,0 +1 @@\n+id\n")
    writeFileSync(join(ws, "claude.patch"), "--- a/.claude/settings.json\t2026-01-01\n+++ b/.claude/settings.json\t2026-01-01\n@@ -1 +1 @@\n-{}\n+{\"x\":1}\n")
    writeFileSync(join(ws, "plain.patch"), "--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-a\n+b\n")
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  const ci = async (command: string) => {
    const policy = bundledPolicy("ci")
    const call = await prepareCall("shell", { command }, { cwd: ws, workspace: ws, home, tmpDirs: ["/nonexistent-tmp"], policy })
    return decide(policy, call, { grants: [] })
  }

  test("the lister reads tar, tar.gz (GNU long names) and zip, and the files a diff names", () => {
    expect(archiveMembers(join(ws, "hooks.tar"))).toEqual({ names: [".git/hooks/post-index-change"] })
    expect(archiveMembers(join(ws, "hooks.tgz"))).toEqual({ names: [".git/hooks/post-index-change"] })
    expect(archiveMembers(join(ws, "long.tar"))).toEqual({ names: [LONG] })
    expect(archiveMembers(join(ws, "cl.zip"))).toEqual({ names: [".claude/settings.json", "lib/a.ts"] })
    expect("unknown" in archiveMembers(join(ws, "odd.tar.xz"))).toBe(true)
    expect(diffTargets(join(ws, "hook.patch"))).toEqual({ names: ["a/.git/hooks/post-checkout", "b/.git/hooks/post-checkout"] })
    expect(diffTargets(join(ws, "claude.patch"))).toEqual({ names: ["a/.claude/settings.json", "b/.claude/settings.json"] })
  })

  test("extracting members that are protected paths or startup files asks critical, however it is spelled", async () => {
    const cases: [string, string][] = [
      ["tar xf hooks.tar", ".git/hooks/post-index-change"], ["tar -xzf hooks.tgz", ".git/hooks"], ["tar --extract --file=hooks.tar", ".git/hooks"],
      ["tar -x -f long.tar", ".claude/"], ["tar xf - < hooks.tar", ".git/hooks"], ["bsdtar -xf hooks.tar", ".git/hooks"], ["unzip -q cl.zip", ".claude/settings.json"],
      ["tar xf hooks.tar -C lib/../", ".git/hooks"], [`tar xf rc.tar -C ${home}`, "startup file"], ["tar xf link.tar", ".git/hooks"],
      ["patch -p1 < hook.patch", ".git/hooks/post-checkout"], ["patch -p1 -i hook.patch", ".git/hooks"], ["patch < hook.patch", ".git/hooks"],
      ["patch --strip=1 --input=claude.patch", ".claude/settings.json"], ["git apply claude.patch", ".claude/settings.json"], ["git apply -p1 plain.patch claude.patch", ".claude"],
    ]
    for (const [command, named] of cases) {
      const d = await ci(command)
      expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes(named) }).toEqual({ command, decision: "ask", risk: "critical", named: true })
    }
  })

  test("an archive that cannot be listed, made earlier in the command, or read from stdin, is high into the workspace", async () => {
    for (const command of ["tar xJf odd.tar.xz", "git archive -o new.tar HEAD && tar xf new.tar", "cat hooks.tar | tar x", "cat hook.patch | patch -p1", "git diff > new.patch; patch -p1 < new.patch"]) {
      const d = await ci(command)
      expect({ command, decision: d.decision, risk: d.risk }).toEqual({ command, decision: "ask", risk: "high" })
    }
  })

  test("controls: ordinary members, a stripped .git, listing, a temp folder and a file that is not there (the command fails) stay allowed under ci", async () => {
    for (const command of ["tar xf plain.tar", "tar xf hooks.tar --strip-components=1", "unzip plain.zip", "unzip -l cl.zip", "tar tf hooks.tar", "tar xf hooks.tar -C /nonexistent-tmp/x", "patch -p1 < plain.patch", "git apply plain.patch", "patch -p2 < hook.patch", "tar xf missing.tar", "git apply missing.patch"]) {
      const d = await ci(command)
      expect({ command, decision: d.decision }).toEqual({ command, decision: command.includes("/nonexistent-tmp") ? "ask" : "allow" })
    }
  })
})
