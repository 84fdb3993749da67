// Per-step cost over a long scripted run: a 200-step plan of `true` through the compiled binary,
// sandboxed (when bwrap is installed) and unsandboxed, alternating, twice each. Reports the wall time
// per step, ccode's own CPU per step (sampled from /proc/<pid>/stat while it runs, so the steps' own
// processes are not counted), and both over the last 50 steps against the first 50 (by the
// step.started timestamps). Then the shell tool alone in this process: its own CPU per step, first
// and last 50 of 200, and the cost of one look for a step's processes (stepProcesses reads every
// child of ccode). Budget: a step costs the same at the end of a run as at its start (the last 50
// steps at most 0.5 ms of CPU slower than the first 50).
import { readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { benchBinary, median, report, scratch } from "./lib.ts"

const STEPS = 200
const ROUNDS = 2
const EDGE = 50
const TICK_MS = 10 // USER_HZ is 100 on Linux
const bin = await benchBinary()
const sb = scratch()
const steps = Array.from({ length: STEPS }, (_, i) => `  - id: s${i}\n    run: "true"`).join("\n")
writeFileSync(join(sb.dir, "task.yaml"), `version: 1\nname: bench\nsteps:\n${steps}\n`)

const modes = Bun.which("bwrap") ? (["required", "off"] as const) : (["off"] as const)
interface Window { wall: number; cpu: number }
interface Run { wallMs: number; cpuMs: number; first: Window; last: Window }
const runs: Record<string, Run[]> = { required: [], off: [] }
for (let round = 0; round < ROUNDS; round++) for (const mode of modes) runs[mode]!.push(await runOnce(mode))

for (const mode of modes) {
  const label = mode === "off" ? "unsandboxed" : "sandboxed"
  const rs = runs[mode]!
  const first = { wall: median(rs.map((r) => r.first.wall)), cpu: median(rs.map((r) => r.first.cpu)) }
  const last = { wall: median(rs.map((r) => r.last.wall)), cpu: median(rs.map((r) => r.last.cpu)) }
  report({ name: `200-step run, ${label}: wall per step`, value: round(median(rs.map((r) => r.wallMs)) / STEPS), unit: "ms/step" })
  report({ name: `200-step run, ${label}: ccode CPU per step`, value: round(median(rs.map((r) => r.cpuMs)) / STEPS), unit: "ms/step" })
  report({ name: `200-step run, ${label}: first ${EDGE} steps, wall / ccode CPU per step`, value: round(first.wall), unit: `/ ${round(first.cpu)} ms` })
  report({ name: `200-step run, ${label}: last ${EDGE} steps, wall / ccode CPU per step`, value: round(last.wall), unit: `/ ${round(last.cpu)} ms` })
  // no budget here: the runner's warm-up (its first steps cost more) moves this by a millisecond or two
  report({ name: `200-step run, ${label}: ccode CPU per step, last ${EDGE} minus first ${EDGE}`, value: round(last.cpu - first.cpu), unit: "ms/step" })
}

const alone = await shellSteps(modes[0] === "required")
report({ name: `shell tool, ${alone.label}: own CPU per step, first ${EDGE} of 200`, value: round(alone.first), unit: "ms/step" })
report({ name: `shell tool, ${alone.label}: own CPU per step, last ${EDGE} minus first ${EDGE}`, value: round(alone.last - alone.first), unit: "ms/step", budget: "<= 0.5", ok: alone.last - alone.first <= 0.5 })
report({ name: `shell tool, ${alone.label}: stepProcesses after 200 steps`, value: round(alone.look), unit: "ms" })

async function runOnce(mode: "required" | "off"): Promise<Run> {
  const start = performance.now()
  const proc = Bun.spawn([bin, "run", "task.yaml", "--json", "--yes", "--sandbox", mode], { cwd: sb.dir, env: sb.env, stdout: "pipe", stderr: "pipe" })
  const stdout = new Response(proc.stdout).text()
  // ccode's own CPU (utime + stime) over time; the last sample is within a few ms of its exit
  const samples: { at: number; cpu: number }[] = []
  let exited = false
  void proc.exited.then(() => (exited = true))
  while (!exited) {
    const cpu = ownCpu(proc.pid)
    if (cpu !== undefined) samples.push({ at: Date.now(), cpu })
    await Bun.sleep(5)
  }
  const wallMs = performance.now() - start
  if ((await proc.exited) !== 0) throw new Error(`the bench run (--sandbox ${mode}) failed: ${await new Response(proc.stderr).text()}`)
  const started: number[] = []
  for (const line of (await stdout).split("\n")) {
    if (line.includes('"step.started"')) started.push(Date.parse((JSON.parse(line) as { ts: string }).ts))
  }
  const cpuAt = (at: number) => (samples.findLast((s) => s.at <= at) ?? samples[0]!).cpu
  const window = (from: number, to: number): Window => ({ wall: (started[to]! - started[from]!) / (to - from), cpu: (cpuAt(started[to]!) - cpuAt(started[from]!)) / (to - from) })
  return { wallMs, cpuMs: samples.at(-1)!.cpu, first: window(0, EDGE), last: window(STEPS - 1 - EDGE, STEPS - 1) }
}

function ownCpu(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS
  } catch {
    return undefined
  }
}

async function shellSteps(sandboxed: boolean) {
  const { executeTool } = await import("../core/tools/execute.ts")
  const { shell } = await import("../core/tools/builtin/shell.ts")
  const { runSandbox } = await import("../core/sandbox/session.ts")
  const { stepProcesses } = await import("../core/tools/process/table.ts")
  const ws = realpathSync(sb.dir)
  const policy = { mode: "required" as const, network: "none" as const, writable: [], hidden: [], read_only: [], preview: false }
  const sandbox = sandboxed ? runSandbox({ status: { mode: "required", bwrap: Bun.which("bwrap")!, notes: [] }, policy, protectedGlobs: [], workspace: ws, home: join(ws, "home"), runDir: join(ws, "run") }) : undefined
  const cpu: number[] = []
  for (let i = 0; i < STEPS; i++) {
    const before = process.cpuUsage()
    const options = { cwd: ws, workspace: ws, env: { PATH: process.env.PATH ?? "" }, runId: "bench", callId: `c${i}`, confine: true, timeoutMs: 20_000, idleTimeoutMs: 20_000, sandbox }
    const result = await executeTool(shell, { command: "true" }, options)
    if (result.status !== "ok") throw new Error(`step ${i} failed: ${result.error?.message}`)
    const used = process.cpuUsage(before)
    cpu.push((used.user + used.system) / 1000)
  }
  const looks: number[] = []
  for (let i = 0; i < 21; i++) {
    const start = performance.now()
    stepProcesses("bench-none", 2 ** 22 + 1)
    looks.push(performance.now() - start)
  }
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length
  return { label: sandboxed ? "sandboxed" : "unsandboxed", first: mean(cpu.slice(0, EDGE)), last: mean(cpu.slice(-EDGE)), look: median(looks) }
}

function round(n: number): number {
  return Math.round(n * 100) / 100
}
rmSync(sb.dir, { recursive: true, force: true })
