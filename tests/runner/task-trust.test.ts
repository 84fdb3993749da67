// A task is trusted by the hash of the text ccode parsed: the trusted version swapped back onto disk
// after the load (a racer, a sync client, an editor's save) lends nothing to the text that runs.
import { afterEach, expect, test } from "bun:test"
import { realpathSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { sha256 } from "../../core/base/hash.ts"
import { prepareRun } from "../../core/runner/prepare.ts"
import { recordTrust } from "../../core/store/trust.ts"
import { loadTask } from "../../core/task/load.ts"
import { OPTIONS, workspace, type Workspace } from "./harness.ts"

const open: Workspace[] = []
afterEach(() => {
  for (const ws of open.splice(0)) ws.close()
})

test("a task swapped for its trusted version after it was parsed may not set BASH_ENV: the parsed text is untrusted", async () => {
  const w = workspace()
  open.push(w)
  const file = join(w.dir, "task.yaml")
  const good = "version: 1\nsteps:\n  - run: echo hello\n"
  const evil = "version: 1\nenv: { BASH_ENV: ./x.sh }\nsteps:\n  - run: echo hello\n"
  const trust = (text: string) => recordTrust(w.store, realpathSync(w.dir), join(realpathSync(w.dir), "task.yaml"), sha256(text))
  trust(good)
  writeFileSync(file, evil)
  const task = loadTask(file)
  writeFileSync(file, good)
  const error = await prepareRun(w.env, task, { ...OPTIONS, trust: false }).catch((e) => e)
  expect(error.exitCode).toBe(2)
  expect(error.message).toContain("BASH_ENV is a loader/config variable")
  // once that very text is trusted, it may
  writeFileSync(file, evil)
  trust(evil)
  const trusted = await prepareRun(w.env, loadTask(file), { ...OPTIONS, trust: false })
  await trusted.extras.close()
  expect(trusted.toolEnv.BASH_ENV).toBe("./x.sh")
})
