// The runner in-process, without the binary: any task (scripted or agent) run and resumed through
// the real lifecycle, with a real SQLite file and real shells in a temp dir of its own, a recording
// reporter, nobody at the terminal unless a test brings its own Human, and a signal a test can fire
// (as Ctrl-C would) to leave a call in flight. close() removes everything it made.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { stringify } from "yaml"
import { nobody, type Human, type RunOptions } from "../../core/runner/context.ts"
import type { RunEvent } from "../../core/runner/events.ts"
import type { RunResult } from "../../core/runner/finish.ts"
import { planRun, resumeRun, startRun, type RunEnv } from "../../core/runner/lifecycle.ts"
import type { ResumeOverrides } from "../../core/runner/overrides.ts"
import { openStore, type Store } from "../../core/store/open.ts"
import { sqliteRunStore } from "../../core/runstore/sqlite.ts"
import { removeTree } from "../tmp.ts"

export { nobody }

export const OPTIONS: RunOptions = { nonInteractive: true, jobs: 1, dryRun: false, trust: true, policy: [], yes: false }

/** Nothing asks below high, retries are quick, no workspace-watch noise. */
export const QUIET_POLICY = {
  approval: { mode: "auto", threshold: "high" },
  limits: { retry_backoff: "20ms" },
  workspace: { detect_external_changes: false },
}

export interface Workspace {
  /** the task's workdir */
  dir: string
  store: Store
  /** every event of every run and resume, in order */
  events: RunEvent[]
  /** what the tools printed, as the terminal would have shown it */
  output: string[]
  env: RunEnv
  file(path: string, content: string): string
  task(spec: Record<string, unknown>): string
  run(options?: Partial<RunOptions>): Promise<RunResult>
  resume(runId: string, opts?: { approveAll?: boolean; overrides?: ResumeOverrides }): Promise<RunResult>
  /** a SIGINT/SIGTERM to the running segment: calls running now stay in flight */
  interrupt(): void
  close(): void
}

export function workspace(opts: { human?: Human; env?: Record<string, string>; name?: string } = {}): Workspace {
  const root = mkdtempSync(join(tmpdir(), "ccode-runner-"))
  const dir = join(root, "work")
  mkdirSync(dir, { recursive: true })
  const store = openStore(join(root, "ccode.db"))
  const events: RunEvent[] = []
  const output: string[] = []
  let signal = new AbortController()
  const env: RunEnv = {
    store: sqliteRunStore(store),
    local: store,
    home: join(root, "home"),
    human: opts.human ?? nobody,
    reporter: { event: (e) => events.push(e), output: (_run, _call, text) => output.push(text) },
    env: { PATH: process.env.PATH, HOME: join(root, "userhome"), ...opts.env },
    get interrupt() {
      return signal.signal
    },
  }
  const file = (path: string, content: string) => {
    const full = join(dir, path)
    mkdirSync(dirname(full), { recursive: true })
    writeFileSync(full, content)
    return full
  }
  // each segment gets a fresh signal: an interrupt stops the segment that was running, not the next
  const segment = <T>(run: () => Promise<T>) => {
    signal = new AbortController()
    return run()
  }
  return {
    dir, store, events, output, env, file,
    task: (spec) => file("task.yaml", stringify({ version: 1, name: opts.name ?? "runner-test", ...spec })),
    run: (options = {}) => segment(async () => startRun(env, await planRun(env, join(dir, "task.yaml"), { ...OPTIONS, ...options }))),
    resume: (runId, how = {}) => segment(() => resumeRun(env, runId, how.approveAll, how.overrides)),
    interrupt: () => signal.abort("interrupted"),
    close: () => {
      store.close()
      removeTree(root)
    },
  }
}

/** Wait until `check` holds (polling), or fail after `ms`. */
export async function until(check: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out waiting")
    await Bun.sleep(20)
  }
}
