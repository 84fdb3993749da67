import { afterAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fingerprintWorkspace } from "../../core/guards/fingerprint.ts"
import { diffFingerprints } from "../../core/guards/workspace-diff.ts"
import { cleanEnv, git } from "../git/hostile-repo.ts"
import { viaCheckpoint } from "./fixtures.ts"

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "ccode-fp-"))
  dirs.push(dir)
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true })
    writeFileSync(join(dir, path), content)
  }
  return dir
}

function gitWorkspace(files: Record<string, string>): { dir: string; env: Record<string, string> } {
  const dir = workspace(files)
  const env = cleanEnv(join(dir, ".nohome"))
  git(dir, env, "init", "-q", "-b", "main")
  git(dir, env, "add", "-A")
  git(dir, env, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "init")
  return { dir, env }
}

/** Before and after a change the test makes, as the runner would: the first fingerprint through a checkpoint. */
async function around(dir: string, change: () => void) {
  const before = viaCheckpoint(await fingerprintWorkspace(dir))
  change()
  const after = await fingerprintWorkspace(dir, { previous: before })
  return { before, after, diff: diffFingerprints(before, after) }
}

describe("outside git: a walk of the workspace", () => {
  test("notices an edited, an added and a deleted file", async () => {
    const dir = workspace({ "src/a.ts": "a", "src/b.ts": "b", "README.md": "hi" })
    const { before, diff } = await around(dir, () => {
      writeFileSync(join(dir, "src/a.ts"), "A") // same size
      writeFileSync(join(dir, "src/new.ts"), "new")
      unlinkSync(join(dir, "README.md"))
    })
    expect(before.kind).toBe("walk")
    expect(diff).toEqual({ changed: true, added: ["src/new.ts"], removed: ["README.md"], modified: ["src/a.ts"] })
  })

  test("an untouched workspace has no changes, and node_modules and .git are not looked at", async () => {
    const dir = workspace({ "a.txt": "a", "node_modules/x/index.js": "x", ".git/HEAD": "ref" })
    const { before, diff } = await around(dir, () => {
      writeFileSync(join(dir, "node_modules/x/index.js"), "changed by an install")
    })
    expect(Object.keys(before.files)).toEqual(["a.txt"])
    expect(diff.changed).toBe(false)
  })

  test("rewriting a file with the same content is not a change", async () => {
    const dir = workspace({ "a.txt": "same" })
    const { diff } = await around(dir, () => writeFileSync(join(dir, "a.txt"), "same"))
    expect(diff.changed).toBe(false)
  })

  test("stops at the file cap and says so", async () => {
    const dir = workspace(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}.txt`, `${i}`])))
    const fingerprint = await fingerprintWorkspace(dir, { maxFiles: 5 })
    expect(Object.keys(fingerprint.files)).toHaveLength(5)
    expect(fingerprint.truncated).toBe(true)
  })
})

describe("inside git: status plus hashes of what it lists", () => {
  test("notices an edited, an added and a deleted file", async () => {
    const { dir } = gitWorkspace({ "src/a.ts": "a", "src/b.ts": "b", "README.md": "hi" })
    const { before, diff } = await around(dir, () => {
      writeFileSync(join(dir, "src/a.ts"), "A")
      writeFileSync(join(dir, "src/new.ts"), "new")
      unlinkSync(join(dir, "README.md"))
    })
    expect(before).toMatchObject({ kind: "git", files: {} })
    expect(diff).toEqual({ changed: true, added: ["src/new.ts"], removed: ["README.md"], modified: ["src/a.ts"] })
  })

  test("a second edit of an already modified file is noticed", async () => {
    const { dir } = gitWorkspace({ "a.ts": "one" })
    writeFileSync(join(dir, "a.ts"), "two")
    const { before, diff } = await around(dir, () => writeFileSync(join(dir, "a.ts"), "six"))
    expect(before.files["a.ts"]?.status).toBe(".M")
    expect(diff.modified).toEqual(["a.ts"])
  })

  test("a file edited back to its committed content counts as modified", async () => {
    const { dir } = gitWorkspace({ "a.ts": "one" })
    writeFileSync(join(dir, "a.ts"), "two")
    const { diff } = await around(dir, () => writeFileSync(join(dir, "a.ts"), "one"))
    expect(diff.modified).toEqual(["a.ts"])
  })

  test("a commit made by someone else moves HEAD", async () => {
    const { dir, env } = gitWorkspace({ "a.ts": "one" })
    const { diff } = await around(dir, () => {
      writeFileSync(join(dir, "b.ts"), "b")
      git(dir, env, "add", "b.ts")
      git(dir, env, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "theirs")
    })
    expect(diff.changed).toBe(true)
    expect(diff.head?.before).not.toBe(diff.head?.after)
  })

  test("a workspace inside a bigger repository watches only itself, with paths relative to it", async () => {
    const { dir } = gitWorkspace({ "pkg/a.ts": "a", "other/b.ts": "b" })
    const pkg = join(dir, "pkg")
    const { diff } = await around(pkg, () => {
      writeFileSync(join(pkg, "a.ts"), "changed")
      writeFileSync(join(dir, "other/b.ts"), "changed elsewhere")
      writeFileSync(join(pkg, "c d.ts"), "a name with a space")
    })
    expect(diff).toEqual({ changed: true, added: ["c d.ts"], removed: [], modified: ["a.ts"] })
  })

  test("ignored files are not part of the fingerprint", async () => {
    const { dir } = gitWorkspace({ ".gitignore": "dist/\n", "a.ts": "a" })
    const { diff } = await around(dir, () => {
      mkdirSync(join(dir, "dist"))
      writeFileSync(join(dir, "dist/out.js"), "built")
    })
    expect(diff.changed).toBe(false)
  })
})

describe("speed on a few thousand files", () => {
  const N = 3000
  const files = Object.fromEntries(Array.from({ length: N }, (_, i) => [`src/d${i % 50}/f${i}.ts`, `export const v${i} = ${i}\n`.repeat(20)]))

  test("a git repository: well under a second per fingerprint", async () => {
    const { dir } = gitWorkspace(files)
    writeFileSync(join(dir, "src/d1/f1.ts"), "edited")
    const started = performance.now()
    const first = await fingerprintWorkspace(dir)
    const second = await fingerprintWorkspace(dir, { previous: first })
    const perFingerprint = (performance.now() - started) / 2
    expect(diffFingerprints(first, second).changed).toBe(false)
    expect(Object.keys(first.files)).toEqual(["src/d1/f1.ts"])
    expect(perFingerprint).toBeLessThan(1000) // generous: ~15 ms here
  }, 60_000) // building the repository takes long on a busy machine

  test("a plain folder: the walk reuses hashes of files whose size and mtime did not change", async () => {
    const dir = workspace(files)
    const old = new Date(Date.now() - 60_000)
    for (const path of Object.keys(files)) utimesSync(join(dir, path), old, old)
    const first = await fingerprintWorkspace(dir)
    const started = performance.now()
    const second = await fingerprintWorkspace(dir, { previous: first })
    const cached = performance.now() - started
    expect(Object.keys(second.files)).toHaveLength(N)
    expect(diffFingerprints(first, second).changed).toBe(false)
    expect(cached).toBeLessThan(1000) // generous: ~20 ms here
  }, 60_000)
})

describe("file names that are also object machinery", () => {
  test("edits of files named __proto__, constructor and hasOwnProperty are noticed, in a walk and in git", async () => {
    // a workspace made from an object literal could not hold "__proto__": it is written by hand
    const dir = workspace({ constructor: "c", hasOwnProperty: "h", toString: "t" })
    writeFileSync(join(dir, "__proto__"), "p")
    const { before, diff } = await around(dir, () => {
      for (const name of ["__proto__", "constructor", "hasOwnProperty", "toString"]) writeFileSync(join(dir, name), `${name} edited`)
      writeFileSync(join(dir, "valueOf"), "new")
    })
    expect(Object.keys(before.files).sort()).toEqual(["__proto__", "constructor", "hasOwnProperty", "toString"])
    expect(diff).toEqual({ changed: true, added: ["valueOf"], removed: [], modified: ["__proto__", "constructor", "hasOwnProperty", "toString"] })
  })
})
