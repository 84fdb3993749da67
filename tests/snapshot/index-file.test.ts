// The index read straight from disk says what `git ls-files` says, in every index version, and
// declines anything it cannot vouch for.
import { afterAll, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseIndex, readIndexFile } from "../../core/snapshot/index-file.ts"

const roots: string[] = []
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true })
})

function repo() {
  const work = mkdtempSync(join(tmpdir(), "ccode-index-"))
  roots.push(work)
  const env = { PATH: process.env.PATH!, HOME: work, GIT_CONFIG_NOSYSTEM: "1" }
  const git = (...args: string[]) => {
    const proc = Bun.spawnSync(["git", ...args], { cwd: work, env, stderr: "pipe" })
    if (proc.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${proc.stderr.toString()}`)
    return proc.stdout.toString()
  }
  git("init", "-q")
  return { work, git }
}

/** `git ls-files -s` and `-v`, as the reader's entries. */
function fromGit(git: (...args: string[]) => string) {
  const tags = git("ls-files", "-v", "-z").split("\0").filter(Boolean).map((r) => r.slice(0, 1))
  return git("ls-files", "-s", "-z").split("\0").filter(Boolean).map((record, i) => {
    const tab = record.indexOf("\t")
    const [mode, oid, stage] = record.slice(0, tab).split(" ")
    return { path: record.slice(tab + 1), mode: mode!, oid: oid!, stage: Number(stage), assumeValid: tags[i] === "h", skipWorktree: tags[i] === "S" }
  })
}

test("versions 2, 3 and 4: paths (long, unicode, spaces), modes, ids and flags as git lists them", () => {
  const { work, git } = repo()
  const files = ["a.txt", "b c/d e.txt", "é/😀.md", "z/deep/er/f", "run.sh"]
  for (const [i, path] of files.entries()) {
    mkdirSync(join(work, path, ".."), { recursive: true })
    writeFileSync(join(work, path), `content ${i}\n`)
  }
  symlinkSync("a.txt", join(work, "link"))
  git("add", "-A")
  // a name longer than the 12 bits its length has in an entry (only in the index: no file system takes it)
  const blob = git("hash-object", "a.txt").trim()
  git("update-index", "--add", "--cacheinfo", `100644,${blob},${Array.from({ length: 20 }, () => "x".repeat(250)).join("/")}`)
  git("update-index", "--chmod=+x", "run.sh")
  git("update-index", "--assume-unchanged", "a.txt")
  for (const version of ["2", "4", "3"]) {
    git("update-index", "--index-version", version)
    if (version === "3") git("update-index", "--skip-worktree", "z/deep/er/f")
    const index = readIndexFile(join(work, ".git", "index"))!
    expect(index.version).toBe(Number(version))
    expect(index.required).toEqual([])
    expect(index.entries).toEqual(fromGit(git))
  }
  const flagged = readIndexFile(join(work, ".git", "index"))!.entries
  expect(flagged.find((e) => e.path === "a.txt")!.assumeValid).toBe(true)
  expect(flagged.find((e) => e.path === "z/deep/er/f")!.skipWorktree).toBe(true)
  expect(flagged.find((e) => e.path === "run.sh")!.mode).toBe("100755")
  expect(flagged.find((e) => e.path === "link")!.mode).toBe("120000")
})

test("an unmerged path is listed with its stages; a split index names the extension git needs", () => {
  const { work, git } = repo()
  writeFileSync(join(work, "f.txt"), "base\n")
  git("add", "-A")
  git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base")
  git("checkout", "-qb", "other")
  writeFileSync(join(work, "f.txt"), "other\n")
  git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "other")
  git("checkout", "-q", "-")
  writeFileSync(join(work, "f.txt"), "main\n")
  git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "main")
  Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", "merge", "-q", "other"], { cwd: work, env: { PATH: process.env.PATH!, HOME: work, GIT_CONFIG_NOSYSTEM: "1" } })
  const index = readIndexFile(join(work, ".git", "index"))!
  expect(index.entries.map((e) => e.stage)).toEqual([1, 2, 3])
  expect(index.entries).toEqual(fromGit(git))
  git("merge", "--abort")
  git("update-index", "--split-index")
  expect(readIndexFile(join(work, ".git", "index"))!.required).toContain("link")
})

test("a torn or foreign index is declined, not half read", () => {
  const { work, git } = repo()
  writeFileSync(join(work, "a.txt"), "a\n")
  git("add", "-A")
  const bytes = readFileSync(join(work, ".git", "index"))
  expect(parseIndex(bytes)).toBeDefined()
  const torn = Buffer.from(bytes)
  torn[20] = torn[20]! ^ 1
  expect(parseIndex(torn)).toBeUndefined()
  expect(parseIndex(bytes.subarray(0, bytes.length - 1))).toBeUndefined()
  expect(parseIndex(Buffer.from("not an index at all, just text"))).toBeUndefined()
  expect(readIndexFile(join(work, "missing"))).toBeUndefined()
})
