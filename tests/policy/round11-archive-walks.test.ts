// Round 11: an archive holding .env reached by a glob (`strings *`, `grep -a x *`) or by a recursive walk
// that prints binary files as text (`grep -ra x .`, `rg -a x`) passes the member on as a read naming it does:
// each asks high and names the member. A walk without -a prints only "binary file matches" and stays allowed.
// Real archives made with tar in a temp folder, decided under the bundled default policy.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"

describe("archives reached by a glob or a walk", () => {
  let ws: string
  let clean: string
  beforeAll(async () => {
    await loadParser()
    ws = realpathSync(mkdtempSync(join(tmpdir(), "ccode-r11walk-")))
    clean = join(ws, "clean")
    const src = join(ws, "src")
    mkdirSync(src)
    mkdirSync(join(ws, "ws2", "sub"), { recursive: true })
    mkdirSync(clean)
    writeFileSync(join(src, ".env"), "API_KEY=FAKESECRET-dotenv\n")
    writeFileSync(join(src, "notes.txt"), "notes\n")
    const tar = (args: string[]) => {
      const r = Bun.spawnSync(["tar", ...args], { cwd: src, stderr: "pipe" })
      if (r.exitCode !== 0) throw new Error(r.stderr.toString())
    }
    tar(["-cf", join(ws, "ws2", "b-ustar.tar"), ".env"])
    tar(["--format=v7", "-cf", join(ws, "ws2", "sub", "b-v7.tar"), ".env"])
    tar(["-czf", join(ws, "ws2", "bk.tgz"), "notes.txt"])
    tar(["-czf", join(ws, "ws2", "sec.tgz"), ".env"])
    const zip = Bun.spawnSync(["python3", "-c", "import zipfile,sys; z=zipfile.ZipFile(sys.argv[1],'w'); z.write('.env'); z.close()", join(ws, "ws2", "b.zip")], { cwd: src })
    if (zip.exitCode !== 0) throw new Error(zip.stderr.toString())
    tar(["-cf", join(clean, "plain.tar"), "notes.txt"])
    writeFileSync(join(clean, "a.txt"), "FAKE words\n")
    rmSync(src, { recursive: true })
  })
  afterAll(() => rmSync(ws, { recursive: true, force: true }))

  const decideIn = async (dir: string, command: string, workspace = ws) => {
    const policy = bundledPolicy("default")
    const call = await prepareCall("shell", { command }, { cwd: dir, workspace, home: "/nonexistent", tmpDirs: ["/nonexistent-tmp"], policy })
    return decide(policy, call, { grants: [] })
  }

  test("a glob or a text-mode walk reaching an archive holding .env asks high and names it", async () => {
    const dir = join(ws, "ws2")
    const cmds = ["grep -a FAKE *", "strings *", "cat *.tar", "grep -ra FAKE .", "grep -ra FAKE", "grep -r --text FAKE .", "grep -r --binary-files=text FAKE", "egrep -R -a FAKE", "rg -a FAKE", "rg -uuu -a FAKE", "rg --text FAKE .", "grep -ra FAKE sub", "grep -a FAKE */*", "grep -ra FAKE */"]
    for (const command of cmds) {
      const d = await decideIn(dir, command)
      expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes(".env") }).toEqual({ command, decision: "ask", risk: "high", named: true })
    }
  })

  test("extractors and decompressors that print what they unpack read the archive: unzip -p, gunzip -c, zcat ask high (ci too)", async () => {
    const dir = join(ws, "ws2")
    for (const command of ["unzip -p b.zip", "unzip -c b.zip .env", "gunzip -c sec.tgz", "gzip -dc sec.tgz", "zcat sec.tgz", "gzip -d --stdout sec.tgz"]) {
      const d = await decideIn(dir, command)
      expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes(".env") }).toEqual({ command, decision: "ask", risk: "high", named: true })
    }
    // an archive of ordinary files printed stays as it was (medium: packs or unpacks files)
    const d = await decideIn(dir, "gunzip -c bk.tgz")
    expect({ risk: d.risk, reason: d.reason.includes("an archive holding") }).toEqual({ risk: "medium", reason: false })
  })

  test("git grep -a, git log -p --text, git show --text print a committed archive's members: high; without --text allowed", async () => {
    const repo = join(ws, "repo")
    mkdirSync(repo)
    const git = (...args: string[]) => {
      const r = Bun.spawnSync(["git", "-c", "user.name=a", "-c", "user.email=a@x", "-c", "init.defaultBranch=main", ...args], { cwd: repo, stderr: "pipe" })
      if (r.exitCode !== 0) throw new Error(r.stderr.toString())
    }
    git("init", "-q")
    Bun.spawnSync(["cp", join(ws, "ws2", "b-ustar.tar"), join(repo, "b.tar")])
    git("add", "-A")
    git("commit", "-qm", "backup")
    for (const command of ["git grep -a FAKE", "git grep --text FAKE", "git log -p --text", "git show --text HEAD", "git grep -a FAKE HEAD"]) {
      const d = await decideIn(repo, command, repo)
      expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes(".env") }).toEqual({ command, decision: "ask", risk: "high", named: true })
    }
    for (const command of ["git grep FAKE", "git log -p", "git show HEAD"]) {
      const d = await decideIn(repo, command, repo)
      expect({ command, decision: d.decision, reason: d.reason }).toEqual({ command, decision: "allow", reason: d.reason })
    }
  })

  test("controls: walks without text mode, and globs and walks of ordinary archives, stay allowed", async () => {
    for (const [dir, command] of [[join(ws, "ws2"), "grep -r FAKE ."], [join(ws, "ws2"), "rg FAKE"], [join(ws, "ws2"), "rg -uuu FAKE"], [clean, "grep -ra FAKE ."], [clean, "strings *"], [clean, "rg -a FAKE"], [clean, "cat *"]] as const) {
      const d = await decideIn(dir, command)
      expect({ command, decision: d.decision, reason: d.reason }).toEqual({ command, decision: "allow", reason: d.reason })
    }
  })
})
