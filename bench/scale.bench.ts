// Workspace scale: the runner's overhead per scripted step in workspaces of 50, 20,000 and 100,000
// files (git) and 20,000 files (plain folder), for steps that change nothing and steps that change
// one file; the first snapshot of the 100k repository (cold: no shadow repository yet); and the disk a
// snapshot takes per changed byte. Slow to set up (it builds the repositories), so `bun run bench`
// leaves it out: run it with `bun run bench scale`. Everything it makes lives in one temp dir, removed.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createSnapshotter } from "../core/snapshot/index.ts"
import { benchBinary, report } from "./lib.ts"

const bin = await benchBinary()
const root = mkdtempSync(join(tmpdir(), "ccode-bench-scale-"))
const only = (process.env.CCODE_BENCH_SCALE ?? "").split(",").filter(Boolean)
const SHORT = 10
const LONG = 50
const ROUNDS = 5

interface Case {
  name: string
  files: number
  git: boolean
  /** per-step budget in ms, both kinds of step */
  budget?: number
}
const cases: Case[] = [
  { name: "git 50 files", files: 50, git: true },
  { name: "git 20k files", files: 20_000, git: true, budget: 5 },
  { name: "git 100k files", files: 100_000, git: true, budget: 15 },
  { name: "plain folder 20k files", files: 20_000, git: false },
]

try {
  for (const c of cases) {
    if (only.length && !only.some((o) => c.name.includes(o))) continue
    const dir = join(root, c.name.replace(/\W+/g, "-"))
    const built = performance.now()
    makeWorkspace(dir, c.files, c.git)
    process.stderr.write(`  ${c.name}: built in ${Math.round(performance.now() - built)} ms\n`)
    if (c.files === 100_000) await firstSnapshot(dir)
    for (const kind of ["no change", "one file changed"] as const) {
      const command = kind === "no change" ? "true" : "echo line >> d0000/f001.txt"
      const { wall, cpu } = overheadPerStep(dir, command)
      const ok = c.budget === undefined ? undefined : wall <= c.budget
      report({ name: `step overhead, ${c.name}, ${kind} (vs bash loop)`, value: round(wall), unit: "ms/step", budget: c.budget === undefined ? undefined : `<= ${c.budget}`, ok })
      report({ name: `  cpu time of it (ccode + its git + bwrap)`, value: round(cpu), unit: "ms/step" })
      if (c.budget === undefined) continue
      // the run's calls join one live sandbox; a bwrap per call (new namespaces, the sandbox's mounts), as before it
      const perCall = overheadPerStep(dir, command, { CCODE_SANDBOX_SHARED: "0" })
      report({ name: `  the same with a bwrap per call (CCODE_SANDBOX_SHARED=0)`, value: round(perCall.wall), unit: "ms/step" })
      report({ name: `    cpu time of it`, value: round(perCall.cpu), unit: "ms/step" })
      const bare = overheadPerStep(dir, command, { CCODE_SANDBOX: "off" })
      report({ name: `  the same without the OS sandbox (CCODE_SANDBOX=off)`, value: round(bare.wall), unit: "ms/step" })
      report({ name: `    cpu time of it`, value: round(bare.cpu), unit: "ms/step" })
    }
    if (c.files === 20_000 && c.git) diskPerChange(dir)
    rmSync(dir, { recursive: true, force: true })
  }
} finally {
  rmSync(root, { recursive: true, force: true })
}

/** A workspace of `files` small files, 100 to a directory; a git repository with them all committed. */
function makeWorkspace(dir: string, files: number, git: boolean): void {
  for (let i = 0; i < files; i++) {
    const sub = join(dir, `d${String(Math.floor(i / 100)).padStart(4, "0")}`)
    if (i % 100 === 0) mkdirSync(sub, { recursive: true })
    writeFileSync(join(sub, `f${String(i % 100).padStart(3, "0")}.txt`), `file ${i}\n${"x".repeat(200 + (i % 300))}\n`)
  }
  if (!git) return
  const env = gitEnv(dir)
  for (const args of [["init", "-q", "-b", "main"], ["add", "-A"], ["-c", "user.name=b", "-c", "user.email=b@b", "commit", "-q", "-m", "init"]]) {
    const proc = Bun.spawnSync(["git", ...args], { cwd: dir, env, stdout: "ignore", stderr: "pipe" })
    if (proc.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${proc.stderr.toString()}`)
  }
}

/**
 * Runner overhead per step: a long plan minus a short one (start-up and the run's first look cancel
 * out), minus a bash loop running the same commands. Five rounds of the three, each round's
 * difference taken, the median reported: at 100k files the fixed part (a whole look at the start and
 * end of a run, over a second) swings by more than forty steps cost, so the best long run minus the
 * best short run (the way this was measured before) said more about the load than about a step.
 * cpu is the processor time of ccode and everything it ran (its git, each step's bwrap), less bash's, per step.
 */
function overheadPerStep(dir: string, command: string, extraEnv: Record<string, string> = {}): { wall: number; cpu: number } {
  const env = { ...sandboxEnv(dir), ...extraEnv }
  runTask(dir, env, command, 2) // warm: the shadow repository exists, as in every run after the first
  const rounds = Array.from({ length: ROUNDS }, () => {
    const short = runTask(dir, env, command, SHORT)
    const long = runTask(dir, env, command, LONG)
    const bash = bashLoop(dir, command, LONG - SHORT)
    return { wall: (long.wall - short.wall - bash.wall) / (LONG - SHORT), cpu: (long.cpu - short.cpu - bash.cpu) / (LONG - SHORT) }
  })
  return { wall: median(rounds.map((r) => r.wall)), cpu: median(rounds.map((r) => r.cpu)) }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

function runTask(dir: string, env: Record<string, string>, command: string, steps: number): { wall: number; cpu: number } {
  // the task file lives outside the workspace: writing it is no change of the workspace
  const task = join(root, "tasks", `${dir.split("/").at(-1)}.yaml`)
  mkdirSync(join(root, "tasks"), { recursive: true })
  // the bench's own task, kept beside the repositories it works on (workdir): trusted, as its author would
  const body = Array.from({ length: steps }, (_, i) => `  - id: s${i}\n    run: ${JSON.stringify(command)}`).join("\n")
  writeFileSync(task, `version: 1\nname: scale\nworkdir: ${JSON.stringify(dir)}\nsteps:\n${body}\n`)
  const started = performance.now()
  const run = Bun.spawnSync([bin, "run", task, "--non-interactive", "--quiet", "--yes", "--trust"], { cwd: dir, env, stdout: "ignore", stderr: "pipe" })
  const wall = performance.now() - started
  if (run.exitCode !== 0) throw new Error(`the bench run failed (exit ${run.exitCode}): ${run.stderr.toString()}`)
  return { wall, cpu: cpuMs(run) }
}

function cpuMs(proc: { resourceUsage?: { cpuTime: { total: number | bigint } } }): number {
  return Number(proc.resourceUsage?.cpuTime.total ?? 0) / 1000
}

function bashLoop(dir: string, command: string, steps: number): { wall: number; cpu: number } {
  const started = performance.now()
  const proc = Bun.spawnSync(["bash", "-c", `for i in $(seq ${steps}); do bash -c ${shellQuote(command)}; done`], { cwd: dir, stdout: "ignore" })
  return { wall: performance.now() - started, cpu: cpuMs(proc) }
}

/** The first snapshot of the 100k repository with no shadow repository yet, in a process of its own (wall and cpu, median of three). */
async function firstSnapshot(dir: string): Promise<void> {
  const home = join(root, "cold-home")
  const script = `import { createSnapshotter } from ${JSON.stringify(join(import.meta.dir, "..", "core", "snapshot", "index.ts"))}
const s = createSnapshotter({ workspace: ${JSON.stringify(dir)}, home: ${JSON.stringify(home)} })
await s.stage(); await s.take("first")`
  const file = join(root, "first-snapshot.ts")
  writeFileSync(file, script)
  const rounds = Array.from({ length: 3 }, () => {
    const warm = Bun.spawnSync(["bun", "-e", "0"]) // bun itself, measured apart and taken off
    const started = performance.now()
    const proc = Bun.spawnSync(["bun", file], { stdout: "ignore", stderr: "pipe" })
    const ms = performance.now() - started
    if (proc.exitCode !== 0) throw new Error(`first snapshot failed: ${proc.stderr.toString()}`)
    rmSync(home, { recursive: true, force: true })
    return { ms, cpu: cpuMs(proc) - cpuMs(warm) }
  })
  const ms = median(rounds.map((r) => r.ms))
  report({ name: "first snapshot, git 100k files, cold", value: Math.round(ms), unit: "ms", budget: "<= 2000", ok: ms <= 2000 })
  report({ name: "  cpu time of it (bun + git)", value: Math.round(median(rounds.map((r) => r.cpu))), unit: "ms" })
}

/** Disk the shadow repository grows by per changed byte: 20 steps, each writing a new 64 KiB file. */
function diskPerChange(dir: string): void {
  const env = sandboxEnv(dir)
  runTask(dir, env, "true", 1)
  const shadow = join(env.CCODE_HOME!, "snapshots")
  const before = diskBytes(shadow)
  const steps = 20
  const size = 64 * 1024
  const command = `head -c ${size} /dev/urandom > new-$(date +%s%N).bin`
  runTask(dir, env, command, steps)
  const grown = diskBytes(shadow) - before
  const ratio = grown / (steps * size)
  report({ name: "snapshot disk use per changed byte, after the first (git 20k)", value: round(ratio), unit: "x", budget: "<= 1.2", ok: ratio <= 1.2 })
}

function diskBytes(path: string): number {
  const du = Bun.spawnSync(["du", "-sk", path], { stdout: "pipe" })
  return Number(du.stdout.toString().split("\t")[0]) * 1024
}

function sandboxEnv(dir: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: join(root, "home"),
    CCODE_HOME: join(root, "ccode-home", dir.split("/").at(-1)!),
    CCODE_DB: join(root, "ccode-home", `${dir.split("/").at(-1)}.db`),
    XDG_CONFIG_HOME: join(root, "config"),
    NO_COLOR: "1",
  }
}

function gitEnv(dir: string): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: join(root, "home"), GIT_CONFIG_NOSYSTEM: "1", GIT_DIR: join(dir, ".git"), GIT_WORK_TREE: dir }
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

function round(n: number): number {
  return Math.round(n * 100) / 100
}
