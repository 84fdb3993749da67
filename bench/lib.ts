// Shared by the benchmarks: the compiled binary under test, a scratch sandbox, timing, and the
// one-line JSON result format every bench file prints.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const ROOT = join(import.meta.dir, "..")

export interface BenchResult {
  name: string
  value: number
  unit: string
  budget?: string
  ok?: boolean
}

export function report(result: BenchResult): void {
  console.log(JSON.stringify(result))
}

/** The binary to measure: CCODE_BIN, else dist/ccode built now. */
export async function benchBinary(): Promise<string> {
  if (process.env.CCODE_BIN) return process.env.CCODE_BIN
  const out = join(ROOT, "dist", "ccode")
  const proc = Bun.spawnSync(["bun", "run", join(ROOT, "scripts", "build.ts"), out], { stderr: "pipe" })
  if (proc.exitCode !== 0) throw new Error(`build failed: ${proc.stderr.toString()}`)
  return out
}

export function scratch(): { dir: string; env: Record<string, string> } {
  // the workspace (`dir`) beside the home and ccode's folders, never holding them: an untrusted task may
  // not take a folder holding the home as its workspace
  const top = mkdtempSync(join(tmpdir(), "ccode-bench-"))
  const dir = join(top, "work")
  mkdirSync(dir)
  mkdirSync(join(top, "home"), { recursive: true })
  // removed when the bench process ends, whichever bench made it
  process.on("exit", () => rmSync(top, { recursive: true, force: true }))
  return {
    dir,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: join(top, "home"),
      CCODE_HOME: join(top, "ccode-home"),
      CCODE_DB: join(top, "ccode.db"),
      XDG_CONFIG_HOME: join(top, "config"),
      NO_COLOR: "1",
    },
  }
}

/** Median wall time (ms) of running a command `runs` times. */
export function timeCommand(argv: string[], opts: { cwd?: string; env?: Record<string, string>; runs?: number; stdin?: string } = {}): number {
  const times: number[] = []
  for (let i = 0; i < (opts.runs ?? 15); i++) {
    const start = performance.now()
    const proc = Bun.spawnSync(argv, { cwd: opts.cwd, env: opts.env, stdout: "ignore", stderr: "ignore", stdin: opts.stdin ? Buffer.from(opts.stdin) : "ignore" })
    times.push(performance.now() - start)
    if (proc.exitCode === null) throw new Error(`${argv.join(" ")} did not exit`)
  }
  return median(times)
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

let hello: string | undefined
/** A compiled Bun hello-world: the baseline for startup budgets. */
export function helloWorld(): string {
  if (hello) return hello
  const dir = mkdtempSync(join(tmpdir(), "ccode-hello-"))
  const src = join(dir, "hello.ts")
  Bun.write(src, 'console.log("hello")\n')
  const out = join(dir, "hello")
  const proc = Bun.spawnSync(["bun", "build", "--compile", "--bytecode", "--minify", src, "--outfile", out], { stderr: "pipe" })
  if (proc.exitCode !== 0) throw new Error(`hello build failed: ${proc.stderr.toString()}`)
  hello = out
  // the compiled binary is ~100 MB: removed when the bench process ends
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }))
  return out
}
