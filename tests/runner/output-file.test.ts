// $CCODE_OUTPUT is made by ccode itself, outside the sandbox, in the run's temp folder that every step
// can write: a link an earlier step planted there must never be followed.
import { afterEach, expect, test } from "bun:test"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { QUIET_POLICY, workspace, type Workspace } from "./harness.ts"

const open: Workspace[] = []
afterEach(() => {
  for (const ws of open.splice(0)) ws.close()
})

test("links planted under the next steps' output names neither truncate a host file nor create one; outputs still flow", async () => {
  const w = workspace()
  open.push(w)
  const victim = join(w.dir, "..", "victim.txt")
  const created = join(w.dir, "..", "created.txt")
  writeFileSync(victim, "IMPORTANT-CONTENT")
  w.file("plant.sh", [
    'd=$(dirname "$CCODE_OUTPUT")',
    // every name the old scheme used, and the same names with a guessed suffix shape
    `for n in 1 2; do ln -s ${victim} "$d/output-b-$n"; ln -s ${created} "$d/output-c-$n"; done`,
    'echo planted=yes >> "$CCODE_OUTPUT"', "",
  ].join("\n"))
  w.task({
    policy: QUIET_POLICY,
    steps: [
      { id: "a", run: "sh plant.sh" },
      { id: "b", needs: ["a"], run: 'echo "b=${{ steps.a.outputs.planted }}" >> "$CCODE_OUTPUT"' },
      { id: "c", needs: ["a"], run: "echo c" },
    ],
  })
  const result = await w.run()
  expect(result.exitCode).toBe(0)
  expect(readFileSync(victim, "utf8")).toBe("IMPORTANT-CONTENT")
  expect(existsSync(created)).toBe(false)
  const finished = w.events.filter((e) => e.type === "step.finished").map((e) => [e.step, e.status])
  expect(finished).toEqual([["a", "ok"], ["b", "ok"], ["c", "ok"]])
})
