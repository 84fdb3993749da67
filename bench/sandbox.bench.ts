// The OS sandbox's cost per shell call: a 100-step plan of `true` run sandboxed and unsandboxed
// through the compiled binary, alternating, 3 times each. The figure is the difference of the
// median step durations (step.finished duration_ms), which a loaded machine's spikes move least.
// Budget: <= 10 ms/step. `CCODE_SANDBOX_SHARED=0` measures a bwrap per call (how every call ran
// before a run's calls shared one live sandbox); `sandbox.network: [host]` what the host allowlist
// adds per step (a proxy socket in ccode, the bridge started inside the command's own bwrap).
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { benchBinary, median, report, scratch } from "./lib.ts"

const STEPS = 100
const ROUNDS = 3
const bin = await benchBinary()
if (!Bun.which("bwrap")) {
  report({ name: "sandbox overhead per shell step: skipped, bwrap is not installed", value: NaN, unit: "" })
  process.exit(0)
}
const sb = scratch()
const steps = Array.from({ length: STEPS }, (_, i) => `  - id: s${i}\n    run: "true"`).join("\n")
writeFileSync(join(sb.dir, "task.yaml"), `version: 1\nname: bench\nsteps:\n${steps}\n`)
writeFileSync(join(sb.dir, "hosts.yaml"), "sandbox:\n  network: [example.com]\n")
const ARGS = { required: ["--sandbox", "required"], perCall: ["--sandbox", "required"], off: ["--sandbox", "off"], hosts: ["--sandbox", "required", "--policy", "hosts.yaml"] }
// the run's calls join one live sandbox; CCODE_SANDBOX_SHARED=0 starts a bwrap per call, as before it
const ENV = { required: {}, perCall: { CCODE_SANDBOX_SHARED: "0" }, off: {}, hosts: {} }

const durations = { required: [] as number[], perCall: [] as number[], off: [] as number[], hosts: [] as number[] }
for (let round = 0; round < ROUNDS; round++) {
  for (const mode of ["required", "perCall", "off", "hosts"] as const) {
    const run = Bun.spawnSync([bin, "run", "task.yaml", "--json", "--yes", ...ARGS[mode]], { cwd: sb.dir, env: { ...sb.env, ...ENV[mode] }, stdout: "pipe", stderr: "pipe" })
    if (run.exitCode !== 0) throw new Error(`the bench run (--sandbox ${mode}) failed (exit ${run.exitCode}): ${run.stderr.toString()}`)
    for (const line of run.stdout.toString().split("\n")) {
      if (!line.includes('"step.finished"')) continue
      durations[mode].push(Number((JSON.parse(line) as { duration_ms: number }).duration_ms))
    }
  }
}

const inside = median(durations.required)
const outside = median(durations.off)
const overhead = inside - outside
report({ name: "sandbox overhead per shell step (`true`, median sandboxed - unsandboxed)", value: round(overhead), unit: "ms/step", budget: "<= 10", ok: overhead <= 10 })
// the fastest steps show the cost without the machine's load (namespace setup and teardown wait on the kernel)
const fastest = Math.min(...durations.required) - Math.min(...durations.off)
report({ name: "sandbox overhead per shell step (fastest sandboxed - fastest unsandboxed)", value: round(fastest), unit: "ms/step" })
report({ name: "shell step `true`, sandboxed (median)", value: round(inside), unit: "ms" })
const perCall = median(durations.perCall)
report({ name: "the same overhead with a bwrap per call (CCODE_SANDBOX_SHARED=0, median)", value: round(perCall - outside), unit: "ms/step" })
report({ name: "the same overhead with a bwrap per call (fastest - fastest)", value: round(Math.min(...durations.perCall) - Math.min(...durations.off)), unit: "ms/step" })
const hosts = median(durations.hosts)
// a host allowlist's calls each start their own bwrap (a proxy socket per call): compared with that
report({ name: "host allowlist cost per shell step (`network: [host]` - a bwrap per call with `network: none`, median)", value: round(hosts - perCall), unit: "ms/step" })
report({ name: "host allowlist cost per shell step (fastest - fastest)", value: round(Math.min(...durations.hosts) - Math.min(...durations.perCall)), unit: "ms/step" })
report({ name: "shell step `true`, unsandboxed (median)", value: round(outside), unit: "ms" })

function round(n: number): number {
  return Math.round(n * 100) / 100
}
