// Resume of a long run: a 10,000-call scripted run paused at a breakpoint, then
// `ccode resume`: time from start to the first new call, and the peak RSS of the resuming process.
// Budgets: <= 200 ms to the first new call; peak RSS <= 150 MB.
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { benchBinary, report, scratch } from "./lib.ts"

const CALLS = 10_000
const bin = await benchBinary()
const sb = scratch()
const steps = Array.from({ length: CALLS + 1 }, (_, i) =>
  i < CALLS ? `  - id: s${i}\n    run: "true"` : `  - id: last\n    run: "true"\n    breakpoint: true`,
).join("\n")
writeFileSync(join(sb.dir, "task.yaml"), `version: 1\nname: long\nsteps:\n${steps}\n`)

const first = Bun.spawnSync([bin, "run", "task.yaml", "--non-interactive", "--quiet", "--json"], { cwd: sb.dir, env: sb.env, stdout: "pipe", stderr: "pipe" })
if (first.exitCode !== 3) throw new Error(`the long run should pause at its breakpoint (exit 3), got ${first.exitCode}: ${first.stderr.toString().slice(-500)}`)
const runId = JSON.parse(first.stdout.toString().split("\n")[0]!).run as string
Bun.spawnSync([bin, "approve", runId, "--all"], { cwd: sb.dir, env: sb.env })

// /usr/bin/time reports the peak RSS; the first step.started line on stdout is the first new call
const start = performance.now()
const proc = Bun.spawn(["/usr/bin/time", "-f", "peak-rss-kb %M", bin, "resume", runId, "--json"], { cwd: sb.dir, env: sb.env, stdout: "pipe", stderr: "pipe" })
let firstCallMs = NaN
const decoder = new TextDecoder()
let buffered = ""
for await (const chunk of proc.stdout) {
  buffered += decoder.decode(chunk)
  if (Number.isNaN(firstCallMs) && buffered.includes('"type":"step.started"')) firstCallMs = performance.now() - start
}
const code = await proc.exited
const stderr = await new Response(proc.stderr).text()
if (code !== 0) throw new Error(`resume failed (exit ${code}): ${stderr.slice(-500)}`)
const rssKb = Number(/peak-rss-kb (\d+)/.exec(stderr)?.[1] ?? NaN)

report({ name: `resume of a ${CALLS.toLocaleString("en")}-call run: time to the first new call`, value: Math.round(firstCallMs), unit: "ms", budget: "<= 200", ok: firstCallMs <= 200 })
report({ name: "resume: peak RSS of the resuming process", value: Math.round(rssKb / 1024), unit: "MB", budget: "<= 150", ok: rssKb / 1024 <= 150 })
