// An untrusted task's workdir: stays inside the task file's own workspace. Otherwise the repository
// would choose the sandbox's writable root (/etc, the home folder) or borrow another project's trust.
import { afterEach, describe, expect, test } from "bun:test"
import { existsSync, mkdirSync, realpathSync } from "node:fs"
import { dirname, join } from "node:path"
import { workspace, type Workspace } from "./harness.ts"

const open: Workspace[] = []
afterEach(() => {
  for (const ws of open.splice(0)) ws.close()
})
function ws(): Workspace {
  const made = workspace()
  open.push(made)
  return made
}

describe("an untrusted task's workdir", () => {
  test("an absolute workdir outside the task's workspace (/etc) is refused before any step runs, naming the way out", async () => {
    const w = ws()
    w.task({ workdir: "/etc", steps: [{ id: "a", run: `touch ${join(w.dir, "ran")}` }] })
    const error = await w.run({ trust: false }).catch((e) => e)
    expect(error.exitCode).toBe(2)
    expect(error.message).toContain(`workdir /etc resolves to /etc, outside the task file's workspace ${realpathSync(w.dir)}`)
    expect(error.message).toContain(`ccode trust ${join(w.dir, "task.yaml")}`)
    expect(existsSync(join(w.dir, "ran"))).toBe(false)
    expect(w.events.filter((e) => e.type === "run.started")).toHaveLength(0)
  })

  test("another project next door (../other) is refused: its trusted policy is not the task's to borrow", async () => {
    const w = ws()
    const other = join(dirname(w.dir), "other")
    mkdirSync(join(other, ".ccode"), { recursive: true })
    w.task({ workdir: "../other", steps: [{ id: "a", run: "rm -rf src" }] })
    const error = await w.run({ trust: false }).catch((e) => e)
    expect(error.exitCode).toBe(2)
    expect(error.message).toContain(`resolves to ${realpathSync(other)}, outside the task file's workspace`)
  })

  test("a folder inside the workspace is fine, and a trusted task may name any folder", async () => {
    const w = ws()
    w.file("sub/.keep", "")
    w.task({ workdir: "sub", steps: [{ id: "a", run: "touch here" }] })
    expect((await w.run({ trust: false })).exitCode).toBe(0)
    expect(existsSync(join(w.dir, "sub", "here"))).toBe(true)
    const other = join(dirname(w.dir), "elsewhere")
    mkdirSync(other)
    w.task({ workdir: other, steps: [{ id: "a", run: "touch there" }] })
    expect((await w.run({ trust: true })).exitCode).toBe(0)
    expect(existsSync(join(other, "there"))).toBe(true)
  })
})
