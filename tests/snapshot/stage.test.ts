// Snapshots staged path by path (what a run with a file watch takes) hold exactly what a whole-tree
// snapshot of the same workspace holds, and undo from them is byte-identical.
import { afterAll, describe, expect, test } from "bun:test"
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { safeGit } from "../../core/git/safe-git.ts"
import { watchWorkspace } from "../../core/guards/watch.ts"
import { createSnapshotter } from "../../core/snapshot/index.ts"
import { shadowDir } from "../../core/snapshot/repo.ts"
import { git } from "../git/hostile-repo.ts"
import { treeState } from "./tree.ts"

const roots: string[] = []
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true })
})

function project(withGit: boolean) {
  const root = mkdtempSync(join(tmpdir(), "ccode-stage-"))
  roots.push(root)
  const work = join(root, "work")
  const files: Record<string, string> = {
    ".gitignore": "dist/\n*.log\n",
    "README.md": "# project\n",
    "src/app.ts": "export const a = 1\n",
    "src/util.ts": "export const u = 2\n",
    "src/deep/config.json": '{"x": 1}\n',
    "docs/guide.md": "guide\n",
    "docs/old.md": "old\n",
    "bin/run.sh": "#!/bin/sh\necho run\n",
  }
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(work, path, ".."), { recursive: true })
    writeFileSync(join(work, path), content)
  }
  chmodSync(join(work, "bin/run.sh"), 0o755)
  mkdirSync(join(work, "empty"))
  if (withGit) {
    const env = { PATH: process.env.PATH!, HOME: root, GIT_CONFIG_NOSYSTEM: "1" }
    git(work, env, "init", "-q")
    git(work, env, "add", "-A")
    git(work, env, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init")
  }
  return { root, work: realpathSync(work) }
}

/** What a whole-tree snapshot holds: its tree and its manifest, from a fresh shadow repository. */
async function wholeTree(work: string, home: string) {
  rmSync(home, { recursive: true, force: true })
  const ref = await createSnapshotter({ workspace: work, home }).take("whole")
  return contents(work, home, ref)
}

async function contents(work: string, home: string, ref: string) {
  const gitDir = shadowDir(home, work)
  const opts = { cwd: work, gitDir, filters: [] as string[], check: true }
  const tree = (await safeGit(["rev-parse", `${ref}^{tree}`], opts)).stdout.trim()
  const message = (await safeGit(["cat-file", "commit", ref], opts)).stdout
  const manifest = JSON.parse(message.split("\n").find((l) => l.startsWith("ccode-manifest: "))!.slice("ccode-manifest: ".length))
  return { tree, manifest }
}

const steps: [string, (work: string) => void][] = [
  ["append to a file", (w) => writeFileSync(join(w, "src/app.ts"), "export const a = 1\nexport const b = 2\n")],
  ["rewrite a file with the same bytes", (w) => writeFileSync(join(w, "src/util.ts"), "export const u = 2\n")],
  ["create a file in a directory that has files", (w) => writeFileSync(join(w, "src/new.ts"), "new\n")],
  ["delete a file, its directory keeps others", (w) => unlinkSync(join(w, "docs/old.md"))],
  ["chmod 600 and chmod -x", (w) => {
    chmodSync(join(w, "README.md"), 0o600)
    chmodSync(join(w, "bin/run.sh"), 0o644)
  }],
  ["a symlink", (w) => symlinkSync("README.md", join(w, "link.md"))],
  ["ignored output", (w) => {
    mkdirSync(join(w, "dist"), { recursive: true })
    writeFileSync(join(w, "dist/out.js"), "built\n")
    writeFileSync(join(w, "debug.log"), "noise\n")
  }],
  ["a new directory with files", (w) => {
    mkdirSync(join(w, "lib/inner"), { recursive: true })
    writeFileSync(join(w, "lib/inner/x.ts"), "x\n")
  }],
  ["a file in the empty directory", (w) => writeFileSync(join(w, "empty/now.txt"), "not empty\n")],
  ["a directory removed whole", (w) => rmSync(join(w, "src/deep"), { recursive: true })],
  ["a file renamed", (w) => renameSync(join(w, "docs/guide.md"), join(w, "docs/manual.md"))],
  ["the last file of a directory removed", (w) => unlinkSync(join(w, "lib/inner/x.ts"))],
  ["a name with a space, a quote and a newline", (w) => writeFileSync(join(w, "src/it's a\nname.txt"), "odd\n")],
]

for (const withGit of [true, false]) {
  describe(`staging only what a watch saw touched (${withGit ? "git work tree" : "plain folder"})`, () => {
    test("every snapshot equals a whole-tree snapshot of the same workspace, and undo from the first is byte-identical", async () => {
      const { root, work } = project(withGit)
      const home = join(root, "home")
      const initial = treeState(work)
      const snapshotter = createSnapshotter({ workspace: work, home })
      const { watch } = watchWorkspace(work, {})
      if (!watch) return // no inotify here: the runner looks at every file instead
      try {
        await snapshotter.stage()
        const first = await snapshotter.take("first")
        for (const [name, step] of steps) {
          step(work)
          await snapshotter.stage(watch.drain().paths)
          const ref = await snapshotter.take(name)
          const incremental = await contents(work, home, ref)
          expect({ step: name, ...incremental }).toEqual({ step: name, ...(await wholeTree(work, join(root, "whole"))) })
        }
        await snapshotter.restore(first)
        // ignored files are outside undo's reach (as in any snapshot): they stay, everything else is as it was
        const { "debug.log": log, "dist/": dist, "dist/out.js": out, ...rest } = treeState(work)
        expect([log, dist, out].every(Boolean)).toBe(true)
        expect(rest).toEqual(initial)
      } finally {
        watch.close()
      }
    }, 60_000)
  })
}

test("a change staged path by path is reported as what it is: added, modified, removed", async () => {
  const { root, work } = project(true)
  const snapshotter = createSnapshotter({ workspace: work, home: join(root, "home") })
  await snapshotter.stage()
  writeFileSync(join(work, "src/app.ts"), "changed\n")
  writeFileSync(join(work, "src/added.ts"), "added\n")
  unlinkSync(join(work, "src/util.ts"))
  writeFileSync(join(work, "debug.log"), "ignored\n")
  const change = await snapshotter.stage(["src/app.ts", "src/added.ts", "src/util.ts", "debug.log", "never-existed.txt"])
  expect(change).toEqual({ added: ["src/added.ts"], modified: ["src/app.ts"], removed: ["src/util.ts"] })
  expect(await snapshotter.stage(["src/app.ts"])).toEqual({ added: [], modified: [], removed: [] })
  expect(readFileSync(join(work, "src/app.ts"), "utf8")).toBe("changed\n")
})

test("a directory swapped for a symlink to somewhere else is never read through", async () => {
  const { root, work } = project(false)
  const outside = join(root, "outside")
  mkdirSync(outside)
  writeFileSync(join(outside, "config.json"), "a secret from outside\n")
  const home = join(root, "home")
  const snapshotter = createSnapshotter({ workspace: work, home })
  await snapshotter.stage()
  await snapshotter.take("first")
  rmSync(join(work, "src/deep"), { recursive: true })
  symlinkSync(outside, join(work, "src/deep"))
  // what a watch reports for that: the directory and the file that was in it
  await snapshotter.stage(["src/deep", "src/deep/config.json"])
  const ref = await snapshotter.take("after")
  const listed = await safeGit(["ls-tree", "-r", ref], { cwd: work, gitDir: shadowDir(home, work), filters: [], check: true })
  expect(listed.stdout).toMatch(/^120000 blob \w+\tsrc\/deep$/m)
  expect(listed.stdout).not.toContain("src/deep/config.json")
})

test("the end of a segment packs the small pack of every snapshot into one, and undo to any of them is still byte-identical", async () => {
  const { root, work } = project(true)
  const home = join(root, "home")
  const packDir = join(shadowDir(home, work), "objects", "pack")
  const indexes = () => readdirSync(packDir).filter((f) => f.endsWith(".idx"))
  const snapshotter = createSnapshotter({ workspace: work, home })
  await snapshotter.stage()
  const states = [treeState(work)]
  const refs = [await snapshotter.take("first")]
  for (let i = 0; i < 5; i++) {
    writeFileSync(join(work, "src/app.ts"), `export const a = ${i}\n`)
    writeFileSync(join(work, `src/new-${i}.ts`), `new ${i}\n`)
    await snapshotter.stage(["src/app.ts", `src/new-${i}.ts`])
    refs.push(await snapshotter.take(`step ${i}`))
    states.push(treeState(work))
  }
  expect(indexes()).toHaveLength(6)
  expect(await snapshotter.pack()).toBeGreaterThan(0)
  expect(indexes()).toHaveLength(1)
  for (const i of [2, 0, 5]) {
    await snapshotter.restore(refs[i]!)
    expect(treeState(work)).toEqual(states[i]!)
  }
})

test("a new segment's first snapshot writes only the trees the shadow repository does not hold yet", async () => {
  const { root, work } = project(true)
  for (let i = 0; i < 40; i++) {
    mkdirSync(join(work, `pkg${i}`))
    writeFileSync(join(work, `pkg${i}`, "index.ts"), `export const n = ${i}\n`)
  }
  const home = join(root, "home")
  const packDir = join(shadowDir(home, work), "objects", "pack")
  const objectsIn = (idx: string) => (readFileSync(join(packDir, idx)).readUInt32BE(8 + 255 * 4))
  const first = createSnapshotter({ workspace: work, home })
  await first.stage()
  await first.take("segment 1")
  await first.pack()
  const before = new Set(readdirSync(packDir))
  // the next segment (another process): every tree is computed again, one directory changed
  writeFileSync(join(work, "pkg7", "index.ts"), "changed\n")
  const second = createSnapshotter({ workspace: work, home })
  await second.stage()
  const ref = await second.take("segment 2")
  const added = readdirSync(packDir).filter((f) => f.endsWith(".idx") && !before.has(f))
  expect(added).toHaveLength(1)
  // pkg7's tree, the root tree, the commit (the blob was written by git add -A)
  expect(objectsIn(added[0]!)).toBe(3)
  const listed = await safeGit(["ls-tree", "-r", ref], { cwd: work, gitDir: shadowDir(home, work), filters: [], check: true })
  expect(listed.stdout.split("\n").filter(Boolean)).toHaveLength(Object.keys(treeState(work)).filter((p) => !p.endsWith("/") && !/^(debug\.log|dist)/.test(p)).length)
})

test("thousands of files of an unusual mode: the manifest is stored once until a mode changes, and undo brings the modes back", async () => {
  const { root, work } = project(false)
  for (let i = 0; i < 4000; i++) {
    if (i % 100 === 0) mkdirSync(join(work, `g${i / 100}`))
    writeFileSync(join(work, `g${Math.floor(i / 100)}`, `f${i}.txt`), `${i}\n`)
    chmodSync(join(work, `g${Math.floor(i / 100)}`, `f${i}.txt`), 0o664)
  }
  const home = join(root, "home")
  const manifestLine = async (ref: string) =>
    (await safeGit(["cat-file", "commit", ref], { cwd: work, gitDir: shadowDir(home, work), filters: [], check: true })).stdout.split("\n").find((l) => l.startsWith("ccode-manifest"))!
  const snapshotter = createSnapshotter({ workspace: work, home })
  await snapshotter.stage()
  const initial = treeState(work)
  const first = await snapshotter.take("first")
  expect(await manifestLine(first)).toMatch(/^ccode-manifest-blob: [0-9a-f]{40}$/)
  writeFileSync(join(work, "g3", "f300.txt"), "new content, same mode\n")
  await snapshotter.stage(["g3/f300.txt"])
  const second = await snapshotter.take("content only")
  expect(second).not.toBe(first)
  expect(await manifestLine(second)).toBe(await manifestLine(first))
  chmodSync(join(work, "g3", "f301.txt"), 0o600)
  await snapshotter.stage(["g3/f301.txt"])
  const third = await snapshotter.take("a mode")
  expect(await manifestLine(third)).not.toBe(await manifestLine(first))
  await snapshotter.restore(first)
  expect(treeState(work)).toEqual(initial)
}, 60_000)
