import { afterAll, describe, expect, test } from "bun:test"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { configuredFilters, GitError, safeGit, safeGitArgv, safeGitEnv } from "../../core/git/safe-git.ts"
import { fingerprintWorkspace } from "../../core/guards/fingerprint.ts"
import { hostileRepo, type HostileRepo } from "./hostile-repo.ts"

const made: HostileRepo[] = []
afterAll(() => {
  for (const h of made) rmSync(h.dir, { recursive: true, force: true })
})
function arrange(): HostileRepo {
  const h = hostileRepo()
  made.push(h)
  return h
}

/** Plain git that may fail (a process filter that is not one makes git complain). */
function plain(h: HostileRepo, env: Record<string, string>, ...args: string[]) {
  return Bun.spawnSync(["git", ...args], { cwd: h.repo, env: { ...h.env, ...env }, stdin: "ignore", stdout: "pipe", stderr: "pipe" })
}

/** Edits every kind of file and makes a stat-only change, so git has to look at contents. */
function touchEverything(h: HostileRepo) {
  writeFileSync(join(h.repo, "a.txt"), "alpha edited\n")
  writeFileSync(join(h.repo, "b.dat"), "beta edited\n")
  writeFileSync(join(h.repo, "c.inc"), "gamma edited\n")
  writeFileSync(join(h.repo, "new.txt"), "new\n")
}

describe("the hostile repository is really hostile (plain git runs its programs)", () => {
  test("status, add, commit, diff and checkout each open a door", () => {
    const h = arrange()
    touchEverything(h)
    plain(h, {}, "status")
    expect(h.tags()).toContain("fsmonitor")
    plain(h, {}, "add", "a.txt", "c.inc")
    plain(h, {}, "add", "b.dat")
    plain(h, {}, "commit", "-q", "-m", "x")
    plain(h, {}, "diff", "HEAD~1", "--", "a.txt")
    plain(h, {}, "diff", "HEAD~1", "--", "c.inc")
    plain(h, {}, "diff", "--no-ext-diff", "HEAD~1", "--", "a.txt")
    plain(h, {}, "checkout", "HEAD~1", "--", "a.txt")
    const tags = new Set(h.tags())
    for (const door of ["fsmonitor", "filter:clean", "filter:inc-clean", "filter:process", "hook:pre-commit", "hook:post-commit", "diff-driver", "diff-external", "textconv", "filter:smudge"]) {
      expect(tags).toContain(door)
    }
  })

  test("a separate GIT_DIR still meets the filters named in the user's global config", () => {
    const h = arrange()
    const snap = { GIT_DIR: join(h.dir, "snap.git"), GIT_WORK_TREE: h.repo }
    plain(h, snap, "init", "-q")
    plain(h, snap, "add", "-A")
    expect(h.tags()).toContain("filter:clean")
  })
})

describe("safeGit runs nothing the repository configures", () => {
  test("status, diff, log -p, show, add, commit and checkout in the repository itself", async () => {
    const h = arrange()
    touchEverything(h)
    utimesSync(join(h.repo, "a.txt"), new Date(), new Date(Date.now() + 5000))
    const opts = { cwd: h.repo, env: { HOME: h.home, XDG_CONFIG_HOME: join(h.home, ".config") }, check: true }
    const status = await safeGit(["status", "--porcelain"], opts)
    expect(status.stdout).toContain(" M a.txt")
    const diff = await safeGit(["diff"], opts)
    expect(diff.stdout).toContain("+alpha edited")
    await safeGit(["add", "-A"], opts)
    await safeGit(["commit", "-q", "-m", "bookkeeping"], opts)
    await safeGit(["log", "-p", "-2"], opts)
    const show = await safeGit(["show", "HEAD:a.txt"], opts)
    expect(show.stdout).toBe("alpha edited\n")
    await safeGit(["checkout", "HEAD~1", "--", "a.txt", "b.dat", "c.inc"], opts)
    expect(readFileSync(join(h.repo, "a.txt"), "utf8")).toBe("alpha\n")
    await safeGit(["read-tree", "-u", "--reset", "HEAD"], opts)
    expect(readFileSync(join(h.repo, "a.txt"), "utf8")).toBe("alpha edited\n")
    expect(h.tags()).toEqual([])
  })

  test("snapshots into a separate GIT_DIR with the workspace as work tree, and restoring them", async () => {
    const h = arrange()
    const opts = { cwd: h.repo, gitDir: join(h.dir, "snap.git"), workTree: h.repo, env: { HOME: h.home }, check: true }
    await safeGit(["init", "-q"], opts)
    touchEverything(h)
    await safeGit(["add", "-A"], opts)
    await safeGit(["commit", "-q", "-m", "before step 1"], opts)
    const files = await safeGit(["ls-files"], opts)
    expect(files.stdout.split("\n").filter(Boolean).sort()).toEqual([".gitattributes", "a.txt", "b.dat", "c.inc", "new.txt"])
    writeFileSync(join(h.repo, "a.txt"), "ruined\n")
    await safeGit(["checkout", "-f", "HEAD", "--", "."], opts)
    expect(readFileSync(join(h.repo, "a.txt"), "utf8")).toBe("alpha edited\n")
    // the user's own repository was not touched
    const own = await safeGit(["log", "--format=%s"], { cwd: h.repo, env: { HOME: h.home } })
    expect(own.stdout.trim()).toBe("init")
    expect(h.tags()).toEqual([])
  })

  test("workspace fingerprints never open a door", async () => {
    const h = arrange()
    touchEverything(h)
    utimesSync(join(h.repo, "a.txt"), new Date(), new Date(Date.now() + 5000))
    const fingerprint = await fingerprintWorkspace(h.repo)
    expect(fingerprint.kind).toBe("git")
    expect(Object.keys(fingerprint.files).sort()).toEqual([".gitattributes", "a.txt", "b.dat", "c.inc", "new.txt"])
    expect(h.tags()).toEqual([])
  })

  test("filter names are found in the repository, included files and global config", async () => {
    const h = arrange()
    const names = await configuredFilters({ cwd: h.repo, env: { HOME: h.home } })
    expect(names.sort()).toEqual(["evil", "inc", "proc"])
  })
})

describe("the command line and environment git gets", () => {
  test("inherited GIT_* variables are dropped; a separate repository is set explicitly", () => {
    const env = safeGitEnv(
      { PATH: "/bin", GIT_DIR: "/evil", GIT_EXTERNAL_DIFF: "x", GIT_CONFIG_PARAMETERS: "'core.fsmonitor'='x'", PAGER: "less", HOME: "/h" },
      { gitDir: "/snap.git", workTree: "/ws", env: { GIT_AUTHOR_NAME: "ccode" } },
    )
    expect(env).toEqual({
      PATH: "/bin", HOME: "/h", GIT_CONFIG_NOSYSTEM: "1", GIT_TERMINAL_PROMPT: "0", GIT_ALLOW_PROTOCOL: "", GIT_NO_LAZY_FETCH: "1",
      GIT_DIR: "/snap.git", GIT_WORK_TREE: "/ws", GIT_AUTHOR_NAME: "ccode",
    })
  })

  test("no transport runs whatever the repository allows: a partial clone's ext:: remote is not fetched from", () => {
    const dir = mkdtempSync(join(tmpdir(), "ccode-lazy-"))
    try {
      const git = (cwd: string, ...args: string[]) => Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@e", "-c", "init.defaultBranch=main", ...args], { cwd })
      mkdirSync(join(dir, "srv"))
      git(join(dir, "srv"), "init", "-q")
      writeFileSync(join(dir, "srv/a.txt"), "one\n")
      git(join(dir, "srv"), "add", ".")
      git(join(dir, "srv"), "commit", "-qm", "one")
      git(join(dir, "srv"), "config", "uploadpack.allowFilter", "true")
      expect(git(dir, "clone", "-q", "--filter=blob:none", "--no-checkout", `file://${join(dir, "srv")}`, "pc").exitCode).toBe(0)
      // the repository's own config names a command as its remote and allows that transport
      const marker = join(dir, "ran")
      git(join(dir, "pc"), "config", "remote.origin.url", `ext::sh -c touch% ${marker}`)
      git(join(dir, "pc"), "config", "protocol.ext.allow", "always")
      // each guard alone holds: no lazy fetch (git >= 2.44 and the 2.39.4 backport), no transport allowed
      const env = safeGitEnv(process.env, {})
      const { GIT_NO_LAZY_FETCH: _lazy, ...protocolsOnly } = env
      const { GIT_ALLOW_PROTOCOL: _protocols, ...lazyOnly } = env
      for (const e of [env, protocolsOnly, lazyOnly]) {
        const r = Bun.spawnSync(["git", ...safeGitArgv(["log", "-p", "-1"], [])], { cwd: join(dir, "pc"), env: e })
        expect(r.exitCode).not.toBe(0)
        expect(existsSync(marker)).toBe(false)
      }
      // without either, git runs the remote's command: the setup is a real partial clone
      const { GIT_NO_LAZY_FETCH: _l, GIT_ALLOW_PROTOCOL: _p, ...neither } = env
      Bun.spawnSync(["git", ...safeGitArgv(["log", "-p", "-1"], [])], { cwd: join(dir, "pc"), env: neither })
      expect(existsSync(marker)).toBe(true)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test("hardening comes before the subcommand; diff-like commands get no external diff or textconv", () => {
    const argv = safeGitArgv(["diff", "HEAD"], ["lfs"])
    const sub = argv.indexOf("diff")
    const before = argv.slice(0, sub).join(" ")
    for (const option of ["core.fsmonitor=false", "core.hooksPath=/dev/null", "core.pager=cat", "core.untrackedCache=false", "protocol.allow=never", "filter.lfs.clean=", "filter.lfs.process=", "filter.lfs.required=false"]) {
      expect(before).toContain(`-c ${option}`)
    }
    expect(argv.slice(sub)).toEqual(["diff", "--no-ext-diff", "--no-textconv", "HEAD"])
    expect(safeGitArgv(["status"], []).slice(-2)).toEqual(["status", "--ignore-submodules=all"])
  })

  test("a failing command is reported with its arguments and git's message", async () => {
    const h = arrange()
    const error = await safeGit(["show", "no-such-ref"], { cwd: h.repo, check: true }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(GitError)
    expect((error as GitError).message).toContain("git show no-such-ref failed (exit 128)")
  })
})
