// Runner overhead per scripted step: a 500-step plan of `true` through the compiled binary vs. the
// same 500 commands (`bash -c true`) in a bash loop. Budget: <= 3 ms/step.
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { benchBinary, report, scratch } from "./lib.ts"

const STEPS = 500
const bin = await benchBinary()
const sb = scratch()
const steps = Array.from({ length: STEPS }, (_, i) => `  - id: s${i}\n    run: "true"`).join("\n")
writeFileSync(join(sb.dir, "task.yaml"), `version: 1\nname: bench\nsteps:\n${steps}\n`)

const t0 = performance.now()
// the runner's own cost: the OS sandbox's cost per step is measured by sandbox.bench.ts
const run = Bun.spawnSync([bin, "run", "task.yaml", "--non-interactive", "--quiet", "--yes", "--sandbox", "off"], { cwd: sb.dir, env: sb.env, stdout: "ignore", stderr: "pipe" })
const ccodeMs = performance.now() - t0
if (run.exitCode !== 0) throw new Error(`the bench run failed (exit ${run.exitCode}): ${run.stderr.toString()}`)

const t1 = performance.now()
Bun.spawnSync(["bash", "-c", `for i in $(seq ${STEPS}); do bash -c true; done`], { cwd: sb.dir, stdout: "ignore" })
const bashMs = performance.now() - t1

const perStep = (ccodeMs - bashMs) / STEPS
report({ name: "runner overhead per scripted step (500 x `true`, vs bash loop)", value: round(perStep), unit: "ms/step", budget: "<= 3", ok: perStep <= 3 })
report({ name: "500-step plan through the binary (total)", value: Math.round(ccodeMs), unit: "ms" })
report({ name: "500 x `bash -c true` in a bash loop (total)", value: Math.round(bashMs), unit: "ms" })

function round(n: number): number {
  return Math.round(n * 100) / 100
}
