// End-to-end harness: the compiled binary (CCODE_BIN, or built once per test process), an isolated
// sandbox (HOME, CCODE_HOME, database) per test, and helpers to run ccode as a user would.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"

const ROOT = join(import.meta.dir, "..", "..")
let built: Promise<string> | undefined

/** Path of the compiled ccode binary under test. */
export function binary(): Promise<string> {
  if (process.env.CCODE_BIN) return Promise.resolve(process.env.CCODE_BIN)
  built ??= (async () => {
    const out = join(mkdtempSync(join(tmpdir(), "ccode-bin-")), "ccode")
    const proc = Bun.spawn(["bun", "run", join(ROOT, "scripts", "build.ts"), out], { stdout: "pipe", stderr: "pipe" })
    if ((await proc.exited) !== 0) throw new Error(`build failed: ${await new Response(proc.stderr).text()}`)
    return out
  })()
  return built
}

export interface Sandbox {
  root: string
  /** a scratch workspace directory */
  work: string
  db: string
  home: string
  env: Record<string, string>
  /** write a file under the sandbox (relative to work) and return its absolute path */
  file(path: string, content: string): string
}

export function sandbox(): Sandbox {
  const root = mkdtempSync(join(tmpdir(), "ccode-e2e-"))
  const work = join(root, "work")
  const home = join(root, "home")
  // ccode's own temp dirs land in the sandbox too (removed with the test process's root)
  const tmp = join(root, "tmp")
  mkdirSync(work, { recursive: true })
  mkdirSync(home, { recursive: true })
  mkdirSync(tmp, { recursive: true })
  const db = join(root, "ccode.db")
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    TMPDIR: tmp,
    CCODE_HOME: join(root, "ccode-home"),
    CCODE_DB: db,
    XDG_CONFIG_HOME: join(root, "config"),
    XDG_DATA_HOME: join(root, "data"),
    NO_COLOR: "1",
    LANG: "C.UTF-8",
  }
  return {
    root, work, db, home, env,
    file(path, content) {
      const full = join(work, path)
      mkdirSync(dirname(full), { recursive: true })
      writeFileSync(full, content)
      return full
    },
  }
}

export interface Result {
  code: number
  stdout: string
  stderr: string
}

export async function ccode(
  sb: Sandbox,
  args: string[],
  opts: { cwd?: string; env?: Record<string, string>; stdin?: string; timeoutMs?: number } = {},
): Promise<Result> {
  const proc = Bun.spawn([await binary(), ...args], {
    cwd: opts.cwd ?? sb.work,
    env: { ...sb.env, ...opts.env },
    stdin: opts.stdin === undefined ? "ignore" : new Blob([opts.stdin]),
    stdout: "pipe",
    stderr: "pipe",
  })
  const timer = setTimeout(() => proc.kill("SIGKILL"), opts.timeoutMs ?? 60_000)
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  clearTimeout(timer)
  return { code, stdout, stderr }
}

/** Spawn ccode without waiting (for kill -9 and signal tests). */
export async function spawnCcode(sb: Sandbox, args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) {
  return Bun.spawn([await binary(), ...args], {
    cwd: opts.cwd ?? sb.work,
    env: { ...sb.env, ...opts.env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  })
}

/** Parse a --json event stream; every line must be JSON. */
export function events(stdout: string): Record<string, unknown>[] {
  return stdout
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>)
}

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 30_000, everyMs = 20): Promise<void> {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    if (await check()) return
    await Bun.sleep(everyMs)
  }
  throw new Error(`condition not met within ${timeoutMs}ms`)
}

/**
 * Run ccode in a real pseudo-terminal (`script`) and press Enter every 400 ms until it exits:
 * Enter picks the first choice at each prompt (allow once / continue / apply). The line prompts, not
 * the panel (CCODE_PANEL=0): the panel has tests of its own (panel.test.ts).
 */
export async function atTerminalPressingEnter(sb: Sandbox, args: string, opts: { cwd?: string; cols?: number } = {}): Promise<{ code: number; output: string }> {
  const bin = await binary()
  const proc = Bun.spawn(["script", "-qfec", `stty cols ${opts.cols ?? 120} rows 40; ${bin} ${args}`, "/dev/null"], {
    cwd: opts.cwd ?? sb.work, env: { ...sb.env, TERM: "xterm", CCODE_PANEL: "0" }, stdin: "pipe", stdout: "pipe", stderr: "pipe",
  })
  let done = false
  void proc.exited.then(() => (done = true))
  for (let i = 0; i < 60 && !done; i++) {
    await Bun.sleep(400)
    if (!done) {
      proc.stdin.write("\r")
      proc.stdin.flush()
    }
  }
  const code = await proc.exited
  return { code, output: await new Response(proc.stdout).text() }
}

/** What `ccode policy check --json` answers. */
export interface Verdict {
  decision: string
  risk: string
  reason: string
}

/** `ccode policy check --json -- COMMAND` in the sandbox (its workspace unless `cwd` says otherwise). */
export async function policyCheck(sb: Sandbox, command: string, opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<Verdict> {
  const r = await ccode(sb, ["policy", "check", "--json", "--", command], opts)
  if (!r.stdout.trim()) throw new Error(`policy check printed nothing (exit ${r.code}): ${r.stderr}`)
  return JSON.parse(r.stdout) as Verdict
}

/** bash -c COMMAND in the sandbox's environment (plus `env`): what it printed, stdout then stderr. */
export function bashIn(sb: Sandbox, command: string, cwd: string, env: Record<string, string> = {}): string {
  const r = Bun.spawnSync(["bash", "-c", command], { cwd, env: { ...sb.env, ...env }, stdin: "ignore", timeout: 20_000 })
  return r.stdout.toString() + r.stderr.toString()
}

/** git with a fixed identity and branch name, in the sandbox's environment; throws when it fails. */
export function gitIn(sb: Sandbox, cwd: string, args: string[], env: Record<string, string> = {}): string {
  const r = Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main", ...args], { cwd, env: { ...sb.env, ...env } })
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`)
  return r.stdout.toString().trim()
}
