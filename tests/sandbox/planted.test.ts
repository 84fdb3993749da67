import { afterAll, describe, expect, test } from "bun:test"
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { missingPlantable, planted, setAside } from "../../core/sandbox/planted.ts"

const root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-planted-")))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let n = 0
function workspace(): string {
  const ws = join(root, `ws${n++}`)
  mkdirSync(ws)
  return ws
}
function plantGit(ws: string): void {
  mkdirSync(join(ws, ".git"))
  writeFileSync(join(ws, ".git", "config"), '[core]\n\tfsmonitor = "touch /tmp/pwned"\n')
}

describe("a planted .git is never left where git reads it", () => {
  test("rename targets a step pre-created for every millisecond of the stamp do not stop the move: the new name is unguessable", () => {
    const ws = workspace()
    plantGit(ws)
    const stamp = "1795802685983"
    writeFileSync(join(ws, `.git.blocked-${stamp}`), "blocker")
    mkdirSync(join(ws, `.git.blocked-${stamp}-x`))
    writeFileSync(join(ws, `.git.blocked-${stamp}-x`, "full"), "")
    const [aside] = setAside(ws, [".git"], stamp)
    expect(existsSync(join(ws, ".git"))).toBe(false)
    expect(aside).toMatch(/^\.git\.blocked-1795802685983-[0-9a-f]{12}$/)
    expect(readFileSync(join(ws, aside!, "config"), "utf8")).toContain("fsmonitor")
    expect(readFileSync(join(ws, `.git.blocked-${stamp}`), "utf8")).toBe("blocker")
  })

  test("when every name is taken the planted folder is deleted, never kept in place, and nothing throws", () => {
    const ws = workspace()
    plantGit(ws)
    writeFileSync(join(ws, ".git.blocked-1-fixed"), "blocker file")
    expect(setAside(ws, [".git"], "1", () => "fixed")).toEqual([".git (deleted)"])
    expect(existsSync(join(ws, ".git"))).toBe(false)
    expect(readFileSync(join(ws, ".git.blocked-1-fixed"), "utf8")).toBe("blocker file")
  })

  test("a planted .git that is a symlink is moved as the link: its target is untouched", () => {
    const ws = workspace()
    const elsewhere = join(root, `target${n++}`)
    mkdirSync(elsewhere)
    writeFileSync(join(elsewhere, "keep"), "keep")
    symlinkSync(elsewhere, join(ws, ".git"))
    writeFileSync(join(ws, ".git.blocked-2-fixed"), "blocker file")
    expect(setAside(ws, [".git"], "2", () => "fixed")).toEqual([".git (deleted)"])
    expect(readFileSync(join(elsewhere, "keep"), "utf8")).toBe("keep")
  })

  test("a planted dangling link counts as planted", () => {
    const ws = workspace()
    const missing = missingPlantable(ws, [])
    expect(missing).toContain(".git")
    symlinkSync(join(root, "nowhere"), join(ws, ".claude"))
    expect(planted(ws, missing)).toEqual([".claude"])
    const [aside] = setAside(ws, [".claude"], "3")
    expect(lstatSync(join(ws, aside!)).isSymbolicLink()).toBe(true)
    expect(readdirSync(ws)).toEqual([aside!])
  })
})
