// Objects ccode writes as a pack of its own are objects git reads back byte for byte.
import { afterAll, expect, test } from "bun:test"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { objectWriter } from "../../core/snapshot/objects.ts"

const roots: string[] = []
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true })
})

function bareRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), "ccode-pack-"))
  roots.push(dir)
  const init = Bun.spawnSync(["git", "init", "-q", "--bare", dir], { env: { PATH: process.env.PATH!, GIT_CONFIG_NOSYSTEM: "1", HOME: dir } })
  expect(init.exitCode).toBe(0)
  return dir
}

function git(gitDir: string, args: string[], input?: string) {
  const proc = Bun.spawnSync(["git", "--git-dir", gitDir, ...args], { stdin: input === undefined ? undefined : Buffer.from(input), env: { PATH: process.env.PATH!, GIT_CONFIG_NOSYSTEM: "1", HOME: gitDir } })
  return { exitCode: proc.exitCode, stdout: proc.stdout, stderr: proc.stderr.toString() }
}

test("blobs of every size, a tree and a commit written as one pack are read back by git exactly, and the pack verifies", () => {
  const gitDir = bareRepo()
  const writer = objectWriter(gitDir)
  const contents = [
    Buffer.alloc(0),
    Buffer.from("a"),
    Buffer.from("fifteen bytes!\n"),
    Buffer.from("sixteen bytes!!\n"),
    Buffer.alloc(2048, 7),
    Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 251)),
    ...Array.from({ length: 300 }, (_, i) => Buffer.from(`file ${i}\n`)),
  ]
  const blobs = contents.map((content) => ({ id: writer.add("blob", content), content }))
  const tree = writer.add("tree", Buffer.concat([Buffer.from("100644 a\0"), Buffer.from(blobs[1]!.id, "hex"), Buffer.from("100755 b\0"), Buffer.from(blobs[5]!.id, "hex")]))
  const commit = writer.add("commit", `tree ${tree}\nauthor a <a@a> 1 +0000\ncommitter a <a@a> 1 +0000\n\nmessage\n`)
  // the same object twice is written once
  expect(writer.add("blob", Buffer.from("a"))).toBe(blobs[1]!.id)
  expect(readdirSync(join(gitDir, "objects", "pack"))).toEqual([])
  writer.flush()
  writer.flush() // nothing gathered since: no second pack
  expect(writer.packs).toHaveLength(1)
  expect(writer.packs[0]!.ids).toHaveLength(contents.length + 2) // every blob, the tree, the commit; "a" once

  const idx = readdirSync(join(gitDir, "objects", "pack")).filter((f) => f.endsWith(".idx"))
  expect(idx).toEqual([`${writer.packs[0]!.name}.idx`])
  const verify = git(gitDir, ["verify-pack", "-v", join(gitDir, "objects", "pack", idx[0]!)])
  expect(verify.stderr).toBe("")
  expect(verify.exitCode).toBe(0)
  for (const { id, content } of blobs) expect(Buffer.from(git(gitDir, ["cat-file", "blob", id]).stdout).equals(content)).toBe(true)
  expect(git(gitDir, ["ls-tree", commit]).stdout.toString()).toBe(`100644 blob ${blobs[1]!.id}\ta\n100755 blob ${blobs[5]!.id}\tb\n`)
  const fsck = git(gitDir, ["fsck", "--full", "--strict", "--no-dangling"])
  expect(fsck.exitCode).toBe(0)
})
