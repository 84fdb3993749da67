import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { globFree, globLinks, throughMagicLink, walkLinks } from "../../core/policy/globdisk.ts"
import { realpathExisting } from "../../core/base/paths.ts"

describe("globLinks: where a glob's matches lead through symlinks", () => {
  let root: string
  let ws: string
  let secret: string
  beforeAll(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-globdisk-")))
    ws = join(root, "ws")
    secret = join(root, "secret")
    mkdirSync(join(ws, "src", "deep"), { recursive: true })
    mkdirSync(secret)
    writeFileSync(join(secret, "key"), "k")
    writeFileSync(join(ws, "src", "a.ts"), "")
    symlinkSync(secret, join(ws, "src", "deep", "out"))
    symlinkSync(join(secret, "key"), join(ws, ".k"))
    for (let i = 0; i < 40; i++) mkdirSync(join(ws, "many", `d${i}`), { recursive: true })
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  const links = (glob: string) => globLinks(join(ws, glob), realpathExisting)

  test("a link matched by the last segment is resolved", () => {
    expect(links("src/deep/*")).toEqual({ links: [secret], names: [], complete: true })
  })
  test("a link matched in the middle leads the rest of the path", () => {
    expect(links("src/*/out/key").links).toEqual([join(secret, "key")])
    expect(links("src/deep/o?t/key").links).toEqual([join(secret, "key")])
  })
  test("dot-files match (dotglob may be on), case is ignored", () => {
    expect(links("*").links).toEqual([join(secret, "key")])
    expect(links(".?").links).toEqual([join(secret, "key")])
    expect(links("SRC/DEEP/*").links).toEqual([])
  })
  test("** reaches any depth and does not need globstar to match one level", () => {
    expect(links("**/key").links).toContain(join(secret, "key"))
    expect(links("**").links.sort()).toEqual([join(secret, "key"), secret].sort())
    expect(links("src/**/key").links).toEqual([join(secret, "key")])
  })
  test("matches without links lead nowhere else: they are the names, for the path rules", () => {
    expect(links("src/*.ts")).toEqual({ links: [], names: [join(ws, "src", "a.ts")], complete: true })
    expect(links("nothing*/x")).toEqual({ links: [], names: [], tails: [], complete: true })
    // a literal last segment: the paths below the matches, for the checks by content (a .git/modules/*/config)
    expect(links("s*/a.ts").tails).toEqual([join(ws, "src", "a.ts")])
  })
  test("more directory entries read than the bound: incomplete, so the caller fails closed", () => {
    expect(globLinks(join(ws, "many/*/x"), realpathExisting, 10).complete).toBe(false)
    expect(globLinks(join(ws, "many/*/x"), realpathExisting, 100).complete).toBe(true)
    // entries read in every segment count, not only the matches kept
    expect(globLinks(join(ws, "many/d1*/x"), realpathExisting, 30).complete).toBe(false)
  })

  test("walkLinks: the links a following walk meets, walking on through links inside the workspace", () => {
    const inner = join(ws, "src", "again")
    symlinkSync(join(ws, "src", "deep"), inner)
    try {
      const walk = walkLinks(join(ws, "src"), ws, realpathExisting)
      expect(walk.complete).toBe(true)
      const outside = walk.links.filter((l) => !l.to.startsWith(ws + "/"))
      expect(outside).toEqual([{ at: join(ws, "src", "deep", "out"), to: secret, dir: true }])
      expect(walk.links.find((l) => l.at === inner)).toEqual({ at: inner, to: join(ws, "src", "deep"), dir: true })
      expect(walkLinks(join(ws, "many"), ws, realpathExisting, 10).complete).toBe(false)
    } finally {
      rmSync(inner)
    }
  })

  test("walkLinks from a glob root walks the directory before the glob", () => {
    expect(globFree(join(ws, "src", "*"))).toBe(join(ws, "src"))
    expect(globFree(join(ws, "s*", "deep"))).toBe(ws)
    expect(globFree("/x/y")).toBe("/x/y")
    const walk = walkLinks(join(ws, "s[r]c"), ws, realpathExisting)
    expect(walk.links.map((l) => l.to)).toContain(secret)
  })

  test("throughMagicLink: a link into /proc or /dev/fd on the way, judged by the process that opens it", () => {
    const magic = join(ws, "self")
    symlinkSync("/proc/self/cwd", magic)
    symlinkSync("../self", join(ws, "src", "again-self"))
    try {
      expect(throughMagicLink(join(magic, "credentials"))).toBe(magic)
      expect(throughMagicLink(join(ws, "src", "again-self", "x"))).toBe(magic)
      expect(throughMagicLink(join(ws, "src", "deep", "out", "key"))).toBeUndefined()
      expect(throughMagicLink("/proc/self/cwd/x")).toBeUndefined()
    } finally {
      rmSync(magic)
      rmSync(join(ws, "src", "again-self"))
    }
  })
})
