// The OS sandbox's cost per shell call: a 100-step plan of `true` run sandboxed and unsandboxed
// through the compiled binary, alternating, 3 times each. The figure is the difference of the
// median step durations (step.finished duration_ms), which a loaded machine's spikes move least.
// Budget: <= 10 ms/step. A third configuration, `sandbox.network: [host]`, measures what the host
// allowlist adds per step (a proxy socket in ccode, the bridge started inside before the command).
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
const ARGS = { required: ["--sandbox", "required"], off: ["--sandbox", "off"], hosts: ["--sandbox", "required", "--policy", "hosts.yaml"] }

const durations = { required: [] as number[], off: [] as number[], hosts: [] as number[] }
for (let round = 0; round < ROUNDS; round++) {
  for (const mode of ["required", "off", "hosts"] as const) {
    const run = Bun.spawnSync([bin, "run", "task.yaml", "--json", "--yes", ...ARGS[mode]], { cwd: sb.dir, env: sb.env, stdout: "pipe", stderr: "pipe" })
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
const hosts = median(durations.hosts)
report({ name: "host allowlist cost per shell step (`network: [host]` - `network: none`, median)", value: round(hosts - inside), unit: "ms/step" })
report({ name: "host allowlist cost per shell step (fastest - fastest)", value: round(Math.min(...durations.hosts) - Math.min(...durations.required)), unit: "ms/step" })
report({ name: "shell step `true`, unsandboxed (median)", value: round(outside), unit: "ms" })

function round(n: number): number {
  return Math.round(n * 100) / 100
}
