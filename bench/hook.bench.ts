// Start-up of the hooks (docs/hosts.md): `ccode hook claude|gemini` and `ccode policy check` in fresh
// processes against a compiled Bun hello world, and `ccode policy check` against Codex's
// `codex execpolicy check` with a one-rule file (skipped when no codex binary is found: CODEX_BIN, or
// `npm install @openai/codex` in /tmp/codex, or `npm i -g @openai/codex`). Runs are interleaved and each command's time is divided
// by the hello world of the same round, so a machine whose load drifts still compares like with like.
import { existsSync, globSync, mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { benchBinary, helloWorld, median, report, scratch } from "./lib.ts"

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40)
const WARMUP = 3

interface Probe {
  name: string
  argv: string[]
  stdin?: string
  env?: Record<string, string>
}

const bin = await benchBinary()
const { dir, env } = scratch()
try {
  const work = join(dir, "work")
  mkdirSync(work)
  const claude = JSON.stringify({
    session_id: "bench", transcript_path: join(dir, "t.jsonl"), cwd: work, permission_mode: "default", hook_event_name: "PreToolUse",
    tool_name: "Bash", tool_input: { command: "git status", description: "status" }, tool_use_id: "toolu_bench",
  })
  const gemini = JSON.stringify({
    session_id: "bench", transcript_path: join(dir, "t.json"), cwd: work, hook_event_name: "BeforeTool", timestamp: new Date().toISOString(),
    tool_name: "run_shell_command", tool_input: { command: "git status" },
  })
  const probes: Probe[] = [
    { name: "hello", argv: [helloWorld()] },
    { name: "hook.claude", argv: [bin, "hook", "claude"], stdin: claude },
    { name: "hook.gemini", argv: [bin, "hook", "gemini"], stdin: gemini },
    { name: "policy.check", argv: [bin, "policy", "check", "--", "git", "status"] },
  ]
  const codex = codexBinary()
  if (codex) {
    const rules = join(dir, "one.rules")
    writeFileSync(rules, 'prefix_rule(pattern = ["git", "push", "--force"], decision = "forbidden")\n')
    mkdirSync(join(dir, "codex-home"))
    probes.push({ name: "codex.execpolicy_check", argv: [codex, "execpolicy", "check", "--rules", rules, "--", "git", "status"], env: { CODEX_HOME: join(dir, "codex-home") } })
  } else process.stderr.write("hook.bench: no codex binary (CODEX_BIN, /tmp/codex or a global npm install), skipping the execpolicy comparison\n")

  const times = new Map(probes.map((p) => [p.name, [] as number[]]))
  const cpu = new Map(probes.map((p) => [p.name, [] as number[]]))
  for (let round = 0; round < ROUNDS + WARMUP; round++) {
    for (const probe of probes) {
      const run = measure(probe, work, env)
      if (round >= WARMUP) {
        times.get(probe.name)!.push(run.wall)
        cpu.get(probe.name)!.push(run.cpu)
      }
    }
  }
  const hello = times.get("hello")!
  report({ name: "startup.hello_world", value: round2(median(hello)), unit: "ms", budget: "reference" })
  // CPU time of the whole process (every thread, the JIT's too), tick-based: steadier than wall on a busy machine
  for (const [name, values] of cpu) report({ name: `${name}_cpu`, value: round2(mean(values)), unit: "ms (mean)" })
  const ratio = (name: string, base = hello) => median(times.get(name)!.map((t, i) => t / base[i]!))
  for (const name of ["hook.claude", "hook.gemini", "policy.check"]) {
    report({ name: `${name}_wall`, value: round2(median(times.get(name)!)), unit: "ms" })
    const r = ratio(name)
    report({ name: `${name}_vs_hello`, value: round2(r), unit: "x", budget: "<= 3", ok: r <= 3 })
  }
  if (codex) {
    report({ name: "codex.execpolicy_check_wall", value: round2(median(times.get("codex.execpolicy_check")!)), unit: "ms" })
    report({ name: "policy.check_vs_codex_execpolicy", value: round2(ratio("policy.check", times.get("codex.execpolicy_check")!)), unit: "x", budget: "reference (< 1: ccode is faster)" })
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}

function measure(probe: Probe, cwd: string, env: Record<string, string>): { wall: number; cpu: number } {
  const start = performance.now()
  const proc = Bun.spawnSync(probe.argv, { cwd, env: { ...env, ...probe.env }, stdin: probe.stdin ? Buffer.from(probe.stdin) : "ignore", stdout: "ignore", stderr: "pipe" })
  const ms = performance.now() - start
  if (proc.exitCode !== 0) throw new Error(`${probe.argv.join(" ")} exited ${proc.exitCode}: ${proc.stderr.toString()}`)
  return { wall: ms, cpu: Number(proc.resourceUsage.cpuTime.total) / 1000 }
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length
}

function codexBinary(): string | undefined {
  if (process.env.CODEX_BIN) return existsSync(process.env.CODEX_BIN) ? process.env.CODEX_BIN : undefined
  // the native binary, not the npm wrapper: the wrapper adds a Node.js start-up (~150 ms) to every call
  const native = globSync("/tmp/codex/node_modules/@openai/codex-*/vendor/*/bin/codex")[0]
  if (native) return native
  const wrapper = Bun.which("codex")
  if (!wrapper) return undefined
  // `npm i -g @openai/codex`: the wrapper is bin/codex.js of the package, the native binary beside it
  const pkg = dirname(dirname(realpathSync(wrapper)))
  return globSync(join(pkg, "node_modules/@openai/codex-*/vendor/*/bin/codex"))[0] ?? wrapper
}

function round2(n: number): number {
  return Math.round(n * 100) / 100
}
