import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { lstatSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { existingPaths, existingPathsOf, forgetMissing } from "../../core/sandbox/present.ts"

// What the layout asked before paths were remembered as missing: lstat and realpath of every path, every time.
function askedAfresh(paths: readonly string[]): string[] {
  const out: string[] = []
  for (const path of paths) {
    try {
      if (lstatSync(path, { throwIfNoEntry: false })) out.push(realpathSync(path))
    } catch {
      // a path through a file, a dangling link
    }
  }
  return out
}

const root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-present-")))
afterAll(() => rmSync(root, { recursive: true, force: true }))

// a tree as the homes have it: folders that exist, credential paths below them that mostly do not
const homes = ["h1", "h2", "h3", "h4"].map((h) => join(root, h))
const names = [".ssh", ".aws/credentials", ".config/gcloud", ".config/gh/hosts.yml", ".netrc", ".kube/config", ".local/share/keyrings"]
const paths = homes.flatMap((h) => names.map((n) => join(h, n)))

beforeAll(async () => {
  for (const h of homes.slice(0, 3)) mkdirSync(join(h, ".config"), { recursive: true })
  // a home reached through a link, as /bin -> usr/bin is (the home of `bin` in /etc/passwd)
  mkdirSync(join(root, "real-h4", ".config"), { recursive: true })
  symlinkSync(join(root, "real-h4"), homes[3]!)
  writeFileSync(join(homes[0]!, ".netrc"), "x")
  // the folders must have been still for 2 s before a missing path below them is remembered
  await Bun.sleep(2100)
})

describe("which sandbox paths exist, with missing ones remembered", () => {
  test("a path made below a remembered folder, at any depth or through a link, is found at the next call", () => {
    forgetMissing()
    expect(existingPaths(paths)).toEqual(askedAfresh(paths))
    expect(existingPathsOf(paths)).toEqual(askedAfresh(paths))
    expect(existingPathsOf(paths)).toEqual(askedAfresh(paths))
    const changes: Array<() => void> = [
      () => mkdirSync(join(homes[1]!, ".ssh")),
      () => mkdirSync(join(homes[0]!, ".config", "gh"), { recursive: true }),
      () => writeFileSync(join(homes[0]!, ".config", "gh", "hosts.yml"), "token"),
      () => symlinkSync(join(homes[0]!, ".config"), join(homes[2]!, ".kube")),
      () => writeFileSync(join(homes[0]!, ".config", "config"), "k"),
      () => {
        // the remembered folder replaced by a link to a folder that holds the path
        mkdirSync(join(root, "elsewhere", "gcloud"), { recursive: true })
        renameSync(join(homes[2]!, ".config"), join(root, "old-config"))
        symlinkSync(join(root, "elsewhere"), join(homes[2]!, ".config"))
        expect(existingPaths(paths)).toContain(join(root, "elsewhere", "gcloud"))
      },
      () => rmSync(join(homes[1]!, ".ssh"), { recursive: true }),
      () => mkdirSync(join(homes[1]!, ".local", "share", "keyrings"), { recursive: true }),
      () => {
        // a whole home replaced by another folder that has the credentials
        mkdirSync(join(root, "other-h3", ".aws"), { recursive: true })
        writeFileSync(join(root, "other-h3", ".aws", "credentials"), "k")
        renameSync(homes[2]!, join(root, "old-h3"))
        renameSync(join(root, "other-h3"), homes[2]!)
      },
      () => mkdirSync(join(root, "real-h4", ".ssh")),
      () => writeFileSync(join(root, "real-h4", ".config", "gcloud"), "k"),
      () => {
        // the link led elsewhere: to a folder with other credentials, then nowhere
        mkdirSync(join(root, "h4-b", ".kube"), { recursive: true })
        writeFileSync(join(root, "h4-b", ".kube", "config"), "k")
        rmSync(homes[3]!)
        symlinkSync(join(root, "h4-b"), homes[3]!)
      },
      () => {
        rmSync(homes[3]!)
        symlinkSync(join(root, "nowhere"), homes[3]!)
      },
      () => mkdirSync(join(root, "nowhere", ".aws", "credentials"), { recursive: true }),
    ]
    for (const change of changes) {
      change()
      expect(existingPathsOf(paths)).toEqual(askedAfresh(paths))
      expect(existingPaths(paths)).toEqual(askedAfresh(paths))
      expect(existingPathsOf(paths)).toEqual(askedAfresh(paths))
    }
    expect(existingPaths(paths)).toContain(join(homes[2]!, ".aws", "credentials"))
  })

  test("random changes to a still tree: every call answers what a fresh look answers", async () => {
    const base = join(root, "fuzz")
    const parts = ["a", "b", "c"]
    const all: string[] = []
    for (const x of parts) for (const y of parts) for (const z of parts) all.push(join(base, x, y, z))
    for (const x of parts) mkdirSync(join(base, x), { recursive: true })
    await Bun.sleep(2100)
    forgetMissing()
    existingPathsOf(all)
    let seed = 7
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % n
    }
    for (let i = 0; i < 300; i++) {
      const depth = 1 + rand(3)
      const target = join(base, ...Array.from({ length: depth }, () => parts[rand(3)]!))
      const op = rand(4)
      try {
        if (op === 0) mkdirSync(target, { recursive: true })
        else if (op === 1) writeFileSync(target, "x")
        else if (op === 2) rmSync(target, { recursive: true, force: true })
        else symlinkSync(join(base, parts[rand(3)]!), target)
      } catch {
        // a parent missing or a file in the way: no change this time
      }
      // a kept list (its memo) and a fresh one, alternately first
      const fresh = askedAfresh(all)
      if (i % 2) expect([existingPathsOf(all), existingPaths([...all])]).toEqual([fresh, fresh])
      else expect([existingPaths([...all]), existingPathsOf(all)]).toEqual([fresh, fresh])
    }
  })
})
