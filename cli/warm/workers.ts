// The warm server's worker processes: `ccode __hook-worker`, started with the caller's environment and
// working directory, loads the hook's modules, then waits for one request on stdin, decides it and
// exits (cli/warm/worker.ts). One process per call: nothing a call leaves behind reaches the next.
import type { Subprocess } from "bun"
import type { WarmRequest } from "./protocol.ts"
import { encodeRequest } from "./protocol.ts"

export interface Worker {
  /** the environment and folder it was started with (spareKey) */
  key: string
  process: Subprocess<"pipe", "pipe", "pipe">
  /** sends the request; the process's exit code and output, undefined when it was killed or timed out */
  decide(req: WarmRequest, limitMs: number): Promise<{ code: number; stdout: Uint8Array; stderr: Uint8Array } | undefined>
}

/** Which callers a spare worker may serve: the same environment, every variable, and the same folder. */
export function spareKey(env: Record<string, string>, cwd: string): string {
  return JSON.stringify([cwd, Object.entries(env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))])
}

export function spawnWorker(env: Record<string, string>, cwd: string): Worker {
  const proc = Bun.spawn([process.execPath, "__hook-worker"], { cwd, env, stdin: "pipe", stdout: "pipe", stderr: "pipe" })
  return {
    key: spareKey(env, cwd),
    process: proc,
    async decide(req, limitMs) {
      const stdout = new Response(proc.stdout).bytes()
      const stderr = new Response(proc.stderr).bytes()
      proc.stdin.write(encodeRequest({ argv: req.argv, env: req.env, cwd: req.cwd, umask: req.umask, stdin: req.stdin }))
      await proc.stdin.end()
      const timer = setTimeout(() => proc.kill("SIGKILL"), limitMs)
      try {
        const [out, err, code] = await Promise.all([stdout, stderr, proc.exited])
        return proc.signalCode ? undefined : { code, stdout: out, stderr: err }
      } finally {
        clearTimeout(timer)
      }
    },
  }
}
