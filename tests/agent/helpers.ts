// In-process agent runs for tests: a workspace with a task.yaml, a fresh database, a silent (or
// recording) reporter, nobody at the terminal unless a test brings its own Human.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { stringify } from "yaml"
import { nobody, type Human, type RunOptions } from "../../core/runner/context.ts"
import type { RunEvent } from "../../core/runner/events.ts"
import { planRun, resumeRun, startRun, type RunEnv } from "../../core/runner/lifecycle.ts"
import { openStore, type Store } from "../../core/store/open.ts"
import type { RunResult } from "../../core/runner/finish.ts"

export { nobody }

export const OPTIONS: RunOptions = { nonInteractive: true, jobs: 1, dryRun: false, trust: true, policy: [], yes: false }

export interface Workspace {
  dir: string
  store: Store
  events: RunEvent[]
  env: RunEnv
  file(path: string, content: string): string
  task(spec: Record<string, unknown>): string
  run(options?: Partial<RunOptions>): Promise<RunResult>
  resume(runId: string): Promise<RunResult>
  close(): void
}

export function workspace(opts: { human?: Human; env?: Record<string, string> } = {}): Workspace {
  const root = mkdtempSync(join(tmpdir(), "ccode-agent-"))
  const dir = join(root, "work")
  mkdirSync(dir, { recursive: true })
  const store = openStore(join(root, "ccode.db"))
  const events: RunEvent[] = []
  const env: RunEnv = {
    store,
    home: join(root, "home"),
    human: opts.human ?? nobody,
    reporter: { event: (e) => events.push(e), output() {} },
    env: { PATH: process.env.PATH, HOME: join(root, "userhome"), ...opts.env },
    interrupt: new AbortController().signal,
  }
  const file = (path: string, content: string) => {
    const full = join(dir, path)
    mkdirSync(dirname(full), { recursive: true })
    writeFileSync(full, content)
    return full
  }
  return {
    dir, store, events, env, file,
    task: (spec) => file("task.yaml", stringify({ version: 1, name: "agent-test", ...spec })),
    run: async (options = {}) => startRun(env, await planRun(env, join(dir, "task.yaml"), { ...OPTIONS, ...options })),
    resume: (runId) => resumeRun(env, runId),
    close: () => store.close(),
  }
}

/** The policy most agent tests want: nothing asks, retries are quick, no workspace watch noise. */
export const QUIET_POLICY = {
  approval: { mode: "auto", threshold: "high" },
  limits: { retry_backoff: "20ms" },
  workspace: { detect_external_changes: false },
}
