// The warm server's worker processes: `ccode __hook-worker`, started with the caller's environment and
// working directory, loads the hook's modules, then waits for one request on stdin, decides it and
// exits (cli/warm/worker.ts). One process per call: nothing a call leaves behind reaches the next.
// The worker says its exit code on fd 3 and closes its stdout and stderr as soon as the hook returns,
// so the answer goes out while it is still closing the database and exiting (2-8 ms on a busy machine).
import { closeSync } from "node:fs"
import type { Subprocess } from "bun"
import type { WarmRequest } from "./protocol.ts"
import { encodeRequest } from "./protocol.ts"

export interface Worker {
  /** the environment and folder it was started with (spareKey) */
  key: string
  process: Subprocess<"pipe", "pipe", "pipe">
  /** sends the request; the hook's exit code and output, undefined when the worker said no code (it
   *  crashed, refused the request, was killed or timed out) */
  decide(req: WarmRequest, limitMs: number): Promise<{ code: number; stdout: Uint8Array; stderr: Uint8Array } | undefined>
}

/** Which callers a spare worker may serve: the same environment, every variable, and the same folder. */
export function spareKey(env: Record<string, string>, cwd: string): string {
  return JSON.stringify([cwd, Object.entries(env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))])
}

export function spawnWorker(env: Record<string, string>, cwd: string): Worker {
  // the server's own binary file, even after the path was given a new one (the server then exits within
  // a second, and a call in that second must still be decided by the binary its client's socket names)
  const proc = Bun.spawn(["/proc/self/exe", "__hook-worker"], { cwd, env, stdio: ["pipe", "pipe", "pipe", "pipe"] }) as Subprocess<"pipe", "pipe", "pipe">
  // the parent's end of the worker's fd 3 (ours to close)
  const codeFd = proc.stdio[3] as unknown as number
  let closed = false
  let reading = false
  const closeCode = () => {
    if (closed) return
    closed = true
    closeSync(codeFd)
  }
  // a spare that never decided (killed when the server stops): nothing reads its fd
  void proc.exited.then(() => reading || closeCode())
  return {
    key: spareKey(env, cwd),
    process: proc,
    async decide(req, limitMs) {
      reading = true
      const said = Bun.file(codeFd).text()
      // closed once the read is over, however the rest goes
      void said.then(closeCode, closeCode)
      const stdout = new Response(proc.stdout).bytes()
      const stderr = new Response(proc.stderr).bytes()
      proc.stdin.write(encodeRequest({ argv: req.argv, env: req.env, cwd: req.cwd, umask: req.umask, stdin: req.stdin }))
      await proc.stdin.end()
      const timer = setTimeout(() => proc.kill("SIGKILL"), limitMs)
      try {
        const [code, out, err] = await Promise.all([said, stdout, stderr])
        return /^[0-9]{1,3}$/.test(code) ? { code: Number(code), stdout: out, stderr: err } : undefined
      } finally {
        clearTimeout(timer)
      }
    },
  }
}
