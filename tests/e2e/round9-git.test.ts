// Review 9 (git and archives): settings in the files a repository's config includes (a hooks folder,
// a program git runs), git's pickaxe as an oracle over committed credential files, revisions spelled
// with a `/`, and archive members that land through --one-top-level, a link in the workspace or an
// absolute name. Each attack is first proven with bash in the sandbox, then the compiled binary asks.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { bashIn, gitIn, policyCheck, sandbox, type Sandbox } from "./harness.ts"

describe("round 9: git includes, pickaxe, slash revisions, archive destinations", () => {
  let sb: Sandbox
  let n = 0
  beforeAll(() => {
    sb = sandbox()
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  // a repository with a hook script and an evil config in the work tree; `marker` is what they write
  function repo(): { ws: string; marker: string } {
    const ws = join(sb.root, `ws${++n}`)
    const marker = join(sb.root, `pwn${n}`)
    mkdirSync(join(ws, "hooks"), { recursive: true })
    gitIn(sb, ws, ["init", "-q"])
    writeFileSync(join(ws, "hooks/pre-commit"), `#!/bin/sh\necho PWNED > ${marker}\n`)
    chmodSync(join(ws, "hooks/pre-commit"), 0o755)
    writeFileSync(join(ws, "evil.cfg"), `[core]\n\tfsmonitor = echo PWNED > ${marker}; false\n`)
    writeFileSync(join(ws, "a.txt"), "a\n")
    gitIn(sb, ws, ["add", "a.txt"])
    gitIn(sb, ws, ["commit", "-qm", "one"])
    return { ws, marker }
  }

  async function risk(command: string, cwd: string): Promise<{ command: string; decision: string; risk: string }> {
    const v = await policyCheck(sb, command, { cwd })
    return { command, decision: v.decision, risk: v.risk }
  }

  test("core.hooksPath in an included config file: a write into that folder asks critical; bash's commit runs it", async () => {
    const { ws, marker } = repo()
    gitIn(sb, ws, ["config", "include.path", "../.gitconfig"])
    writeFileSync(join(ws, ".gitconfig"), "[core]\n\thooksPath = .githooks\n")
    mkdirSync(join(ws, ".githooks"))
    for (const command of ["cp hooks/pre-commit .githooks/", "install -m755 hooks/pre-commit .githooks/pre-commit", "mv hooks/pre-commit .githooks/"]) {
      expect(await risk(command, ws)).toEqual({ command, decision: "ask", risk: "critical" })
    }
    const v = await policyCheck(sb, "cp hooks/pre-commit .githooks/", { cwd: ws })
    expect(v.reason).toContain("core.hooksPath")
    // includeIf with any condition, nested includes
    gitIn(sb, ws, ["config", "--unset", "include.path"])
    gitIn(sb, ws, ["config", `includeIf.gitdir:${ws}/.path`, "../inc5.cfg"])
    writeFileSync(join(ws, "inc5.cfg"), "[include]\n\tpath = inc6.cfg\n")
    writeFileSync(join(ws, "inc6.cfg"), "[core]\n\thooksPath = hk5\n")
    expect(await risk("cp hooks/pre-commit hk5/", ws)).toEqual({ command: "cp hooks/pre-commit hk5/", decision: "ask", risk: "critical" })
    // the proof: git really runs the hook from the included setting
    bashIn(sb, "mkdir -p hk5 && cp hooks/pre-commit hk5/ && git -c user.name=t -c user.email=t@e commit -q --allow-empty -m t", ws)
    expect(readFileSync(marker, "utf8")).toContain("PWNED")
    // control: a folder no setting names
    expect(await risk("cp hooks/pre-commit tools/", ws)).toEqual({ command: "cp hooks/pre-commit tools/", decision: "ask", risk: "medium" })
  }, 60_000)

  test("a workspace file the repository's config includes is git configuration: writing it asks critical; bash's git status runs it", async () => {
    const { ws, marker } = repo()
    gitIn(sb, ws, ["config", "include.path", "../.gitconfig"])
    gitIn(sb, ws, ["config", "includeIf.onbranch:main.path", "../br.cfg"])
    for (const command of ["cp evil.cfg .gitconfig", "printf '[core]\\n\\tfsmonitor = x\\n' > .gitconfig", "echo '[core]' >> .gitconfig", "tee .gitconfig < evil.cfg", "cp evil.cfg br.cfg"]) {
      expect(await risk(command, ws)).toEqual({ command, decision: "ask", risk: "critical" })
    }
    writeFileSync(join(ws, ".gitconfig"), "[user]\n\tname = x\n")
    expect(await risk("sed -i s/x/y/ .gitconfig", ws)).toEqual({ command: "sed -i s/x/y/ .gitconfig", decision: "ask", risk: "critical" })
    const v = await policyCheck(sb, "cp evil.cfg .gitconfig", { cwd: ws })
    expect(v.reason).toContain("includes (include.path)")
    bashIn(sb, "cp evil.cfg .gitconfig && git status >/dev/null 2>&1", ws)
    expect(readFileSync(marker, "utf8")).toContain("PWNED")
    // control: a repository that includes nothing
    const other = repo().ws
    expect(await risk("cp evil.cfg .gitconfig", other)).toEqual({ command: "cp evil.cfg .gitconfig", decision: "ask", risk: "medium" })
  }, 60_000)

  // a repository with a committed .env, a slash branch at it, a later commit, and a stash of .env
  function history(): string {
    const { ws } = repo()
    writeFileSync(join(ws, ".env"), "API_KEY=FAKESECRET-env\n")
    gitIn(sb, ws, ["add", ".env"])
    gitIn(sb, ws, ["commit", "-qm", "env"])
    gitIn(sb, ws, ["branch", "feature/x"])
    gitIn(sb, ws, ["update-ref", "refs/remotes/origin/main", "HEAD"])
    mkdirSync(join(ws, "src"))
    writeFileSync(join(ws, "src/a.ts"), "export {}\n")
    gitIn(sb, ws, ["add", "src/a.ts"])
    gitIn(sb, ws, ["commit", "-qm", "src"])
    gitIn(sb, ws, ["branch", "feature/y"])
    writeFileSync(join(ws, ".env"), "API_KEY=FAKESECRET-stashed\n")
    gitIn(sb, ws, ["stash", "-q"])
    return ws
  }

  test("git's pickaxe over a committed .env: bash finds the secret's letters, ccode asks high", async () => {
    const ws = history()
    expect(bashIn(sb, "git log --all -G '^API_KEY=[A-M]' --format=%h", ws).trim()).not.toBe("")
    expect(bashIn(sb, "git log --all -G '^API_KEY=[N-Z]' --format=%h", ws).trim()).toBe("")
    for (const command of ["git log -G 'API_KEY=FAKES' --oneline", "git log --all -G '^API_KEY=[A-M]' --format=%h", "git log -S 'FAKESECRET-e' --format=%h", "git log --all --pickaxe-regex -S 'KEY=F[A-Z]' --oneline", "git diff --name-only -G 'KEY=FAKE' HEAD~2", "git diff --quiet -G FAKE HEAD~2", "git show -s -G 'KEY=FAK' --format=%h HEAD", "git log -GKEY --oneline"]) {
      expect(await risk(command, ws)).toEqual({ command, decision: "ask", risk: "high" })
    }
    // controls: the everyday log, a pickaxe narrowed to other files
    for (const command of ["git log --oneline", "git log -G foo --oneline -- src/a.ts", "git log --find-object=HEAD --oneline"]) {
      expect(await risk(command, ws)).toEqual({ command, decision: "allow", risk: "safe" })
    }
  }, 60_000)

  test("revisions spelled with a `/`: bash prints the committed or stashed .env, ccode asks high", async () => {
    const ws = history()
    expect(bashIn(sb, "git show feature/x", ws)).toContain("FAKESECRET-env")
    expect(bashIn(sb, "git stash list -p", ws)).toContain("FAKESECRET-stashed")
    for (const command of ["git show feature/x", "git log -p origin/main", "git show origin/main", "git diff feature/x~1 feature/x", "git log -p -1 feature/x --", "git show refs/heads/main~1", "git show heads/main~1", "git log -p refs/heads/main", "git show refs/stash", "git show refs/stash@{0}", "git diff HEAD refs/stash", "git log -p -m refs/stash", "git grep FAKE feature/x", "git whatchanged -p feature/x", "git stash list -p", "git stash list --patch --format="]) {
      expect(await risk(command, ws)).toEqual({ command, decision: "ask", risk: "high" })
    }
    // controls: a path with a `/` that is in the work tree, a slash branch whose commit holds no credential file
    for (const command of ["git log -p src/a.ts", "git diff src/a.ts", "git show feature/y", "git log --oneline feature/x", "git stash list"]) {
      expect(await risk(command, ws)).toEqual({ command, decision: "allow", risk: "safe" })
    }
  }, 60_000)

  test("a committed .env's blob given a new name (update-index --cacheinfo, notes -C): bash prints it as leak.txt, ccode asks high", async () => {
    const ws = history()
    const blob = gitIn(sb, ws, ["rev-parse", "HEAD~1:.env"])
    const plain = gitIn(sb, ws, ["rev-parse", "HEAD:a.txt"])
    for (const command of [`git update-index --add --cacheinfo 100644,${blob},leak.txt`, `git update-index --add --cacheinfo 100644 ${blob.slice(0, 10)} leak.txt`, `git notes add -C ${blob} HEAD`, `git notes add -c ${blob.slice(0, 8)} HEAD`, `git notes append --reuse-message=${blob} HEAD`, `git read-tree --prefix=x/ ${blob}`, `printf '100644 blob ${blob}\tleak.txt\n' | git mktree`, `git tag envtag ${blob}`, `git update-ref refs/x ${blob.slice(0, 12)}`, "git update-index --index-info < list.txt"]) {
      const v = await policyCheck(sb, command, { cwd: ws })
      expect({ command, decision: v.decision, risk: v.risk }).toEqual({ command, decision: "ask", risk: "high" })
      // the blob's own name where git finds it, else why its ids are not known
      expect(v.reason).toMatch(command.includes("mktree") || command.includes("index-info") ? /gives an object a new name.*from its input/ : /\/\.env matches/)
    }
    // controls: an ordinary blob, a note with a message
    for (const command of [`git update-index --add --cacheinfo 100644,${plain},copy.txt`, "git notes add -m reviewed HEAD", "git tag v1 HEAD", 'git tag -a v2 -m "$MSG"']) {
      const v = await policyCheck(sb, command, { cwd: ws })
      expect({ command, decision: v.decision, risk: v.risk }).toEqual({ command, decision: "ask", risk: "medium" })
    }
    expect(bashIn(sb, `git update-index --add --cacheinfo 100644,${blob},leak.txt && git show :leak.txt`, ws)).toContain("FAKESECRET-env")
  }, 60_000)

  test("a submodule's .env printed from the superproject (--submodule=diff, grep --recurse-submodules, or the config): bash prints it, ccode asks high", async () => {
    const src = join(sb.root, "subsrc")
    mkdirSync(src)
    gitIn(sb, src, ["init", "-q"])
    writeFileSync(join(src, "a.txt"), "a\n")
    writeFileSync(join(src, ".env"), "K=FAKESECRET-sub\n")
    gitIn(sb, src, ["add", "."])
    gitIn(sb, src, ["commit", "-qm", "env"])
    const { ws } = repo()
    gitIn(sb, ws, ["-c", "protocol.file.allow=always", "submodule", "add", "-q", src, "sm"])
    gitIn(sb, ws, ["commit", "-qm", "sm"])
    expect(bashIn(sb, "git log -p --submodule=diff -1; git grep --recurse-submodules K", ws)).toContain("FAKESECRET-sub")
    for (const command of ["git log -p --submodule=diff -1", "git diff --submodule=diff HEAD~1", "git show --submodule=diff", "git grep --recurse-submodules K", "git grep --recurse-sub K"]) {
      const v = await policyCheck(sb, command, { cwd: ws })
      expect({ command, decision: v.decision, risk: v.risk }).toEqual({ command, decision: "ask", risk: "high" })
      expect(v.reason).toContain("sm/.env")
    }
    // controls: without the option git prints the submodule's commit id only
    for (const command of ["git show", "git log -p -1", "git grep K", "git show --submodule=log"]) {
      expect(await risk(command, ws)).toEqual({ command, decision: "allow", risk: "safe" })
    }
    // the repository's own settings do what the options do
    gitIn(sb, ws, ["config", "diff.submodule", "diff"])
    gitIn(sb, ws, ["config", "submodule.recurse", "true"])
    expect(bashIn(sb, "git show; git grep K", ws)).toContain("FAKESECRET-sub")
    for (const command of ["git show", "git grep K"]) expect(await risk(command, ws)).toEqual({ command, decision: "ask", risk: "high" })
  }, 60_000)

  test("a plain read of an archive holding .env prints the member: bash shows the secret, ccode asks high", async () => {
    const { ws } = repo()
    writeFileSync(join(ws, ".env"), "API_KEY=FAKESECRET-env\n")
    bashIn(sb, "tar -cf backup.tar .env a.txt && gzip -kn backup.tar && tar -cf plain.tar a.txt", ws)
    bashIn(sb, "zip -q backup.zip .env a.txt", ws)
    expect(bashIn(sb, "cat backup.tar; base64 -d <<< \"$(base64 -w0 backup.tar.gz)\" | gzip -dc", ws)).toContain("FAKESECRET-env")
    const cases = ["cat backup.tar", "strings backup.tar", "grep -a KEY backup.tar", "head -c 2000 backup.tar", "od -c backup.tar", "base64 backup.tar", "cat backup.tar.gz", ...(existsSync(join(ws, "backup.zip")) ? ["xxd backup.zip"] : [])]
    for (const command of cases) {
      const v = await policyCheck(sb, command, { cwd: ws })
      expect({ command, decision: v.decision, risk: v.risk }).toEqual({ command, decision: "ask", risk: "high" })
      expect(v.reason).toContain("an archive holding .env")
    }
    // control: an archive of ordinary files
    for (const command of ["cat plain.tar", "strings plain.tar"]) expect(await risk(command, ws)).toEqual({ command, decision: "allow", risk: "safe" })
  }, 60_000)

  function tarOf(ws: string, name: string, files: Record<string, string>, flags = ""): void {
    const src = join(sb.root, `src-${name}`)
    for (const [f, text] of Object.entries(files)) {
      const at = f.startsWith("/") ? f : join(src, f)
      mkdirSync(join(at, ".."), { recursive: true })
      writeFileSync(at, text)
      chmodSync(at, 0o755)
    }
    const members = Object.keys(files).join(" ")
    bashIn(sb, `mkdir -p ${src} && tar -C ${src} ${flags} -cf ${join(ws, name)} ${members}`, ws)
  }

  test("tar --one-top-level=DIR: bash lands the hook in .git/hooks, ccode asks critical", async () => {
    const { ws, marker } = repo()
    tarOf(ws, "evil.tar", { "pre-commit": `#!/bin/sh\necho PWNED > ${marker}\n` })
    for (const command of ["tar -xf evil.tar --one-top-level=.git/hooks", "tar -x --one-top-level=.git/hooks -f evil.tar", "tar -xf evil.tar --one-top-level=.claude/commands"]) {
      expect(await risk(command, ws)).toEqual({ command, decision: "ask", risk: "critical" })
    }
    bashIn(sb, "tar -xf evil.tar --one-top-level=.git/hooks && git -c user.name=t -c user.email=t@e commit -q --allow-empty -m t", ws)
    expect(readFileSync(marker, "utf8")).toContain("PWNED")
    expect(await risk("tar -xf evil.tar --one-top-level=unpacked", ws)).toEqual({ command: "tar -xf evil.tar --one-top-level=unpacked", decision: "ask", risk: "medium" })
  }, 60_000)

  test("archive members through a link in the workspace, and tar -P's absolute names: bash writes the hook and ~/.bashrc, ccode asks critical", async () => {
    const { ws, marker } = repo()
    tarOf(ws, "sym.tar", { "lnk/pre-commit": `#!/bin/sh\necho PWNED > ${marker}\n` })
    bashIn(sb, `cd ${sb.root}/src-sym.tar && zip -qr ${ws}/sym.zip lnk`, ws)
    symlinkSync(".git/hooks", join(ws, "lnk"))
    const cases = ["tar -xf sym.tar", ...(existsSync(join(ws, "sym.zip")) ? ["unzip -o sym.zip"] : [])]
    for (const command of cases) expect(await risk(command, ws)).toEqual({ command, decision: "ask", risk: "critical" })
    bashIn(sb, "tar -xf sym.tar", ws)
    expect(existsSync(join(ws, ".git/hooks/pre-commit"))).toBe(true)
    // an absolute member: tar -P writes it where it names
    const rc = join(sb.home, ".bashrc")
    tarOf(ws, "abs.tar", { [rc]: "echo PWNED-bashrc\n" }, "-P")
    rmSync(rc)
    for (const command of ["tar -xPf abs.tar", "tar -xf abs.tar -P", "tar --absolute-names -xf abs.tar"]) {
      expect(await risk(command, ws)).toEqual({ command, decision: "ask", risk: "critical" })
    }
    bashIn(sb, "tar -xPf abs.tar", ws)
    expect(readFileSync(rc, "utf8")).toContain("PWNED-bashrc")
    rmSync(rc)
    // control: without -P the member lands below the workspace
    expect(await risk("tar -xf abs.tar", ws)).toEqual({ command: "tar -xf abs.tar", decision: "ask", risk: "medium" })
  }, 60_000)
})
