// An approval holds for the call the person was shown: on resume, a call whose working directory was
// swapped for a symlink meanwhile (and is now judged critical) is asked again, never run.
import { afterEach, expect, test } from "bun:test"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { workspace, type Workspace } from "./harness.ts"

const open: Workspace[] = []
afterEach(() => {
  for (const ws of open.splice(0)) ws.close()
})

const requests = (w: Workspace) => w.events.filter((e) => e.type === "request.created")

test("an approved rm -rf ./* in scratch/ is asked again when scratch/ became a link to the workspace while it waited", async () => {
  const w = workspace()
  open.push(w)
  w.file("important.txt", "keep me")
  w.file("scratch/junk.txt", "junk")
  w.file("swap.sh", "mv scratch scratch.old && ln -s . scratch\n")
  w.task({
    policy: { limits: { retry_backoff: "20ms" }, workspace: { detect_external_changes: false } },
    steps: [
      { id: "clean", working_directory: "scratch", run: "rm -rf ./*" },
      { id: "swap", run: "sh swap.sh" },
    ],
  })
  const first = await w.run()
  expect(first.exitCode).toBe(3)
  expect(requests(w).map((e) => [e.step, e.risk])).toEqual([["clean", "high"]])
  expect(existsSync(join(w.dir, "scratch.old"))).toBe(true) // the swap ran while clean waited
  const resumed = await w.resume(String(first.runId), { approveAll: true })
  expect(resumed.exitCode).toBe(3)
  expect(readFileSync(join(w.dir, "important.txt"), "utf8")).toBe("keep me")
  const again = requests(w).at(-1)!
  expect([again.step, again.risk]).toEqual(["clean", "critical"])
  expect(String(again.reason)).toContain("the call is not what was approved")
})

test("an approval still applies when nothing about the call changed", async () => {
  const w = workspace()
  open.push(w)
  w.file("scratch/junk.txt", "junk")
  w.task({
    policy: { workspace: { detect_external_changes: false } },
    steps: [{ id: "clean", working_directory: "scratch", run: "rm -rf ./*" }],
  })
  const first = await w.run()
  expect(first.exitCode).toBe(3)
  const resumed = await w.resume(String(first.runId), { approveAll: true })
  expect(resumed.exitCode).toBe(0)
  expect(existsSync(join(w.dir, "scratch", "junk.txt"))).toBe(false)
  expect(requests(w)).toHaveLength(1)
})
