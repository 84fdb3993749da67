// `ccode hook claude|gemini --warm`: a thin client that has the user's warm hook server decide the call
// (cli/warm/server.ts) and prints its answer. It loads none of the policy, the analysis or the store.
// Fails closed: no server, a folder or socket that is not the user's own, a refused or slow connection,
// an answer that is not whole and well formed, all mean the call is decided here, in-process, exactly
// as `ccode hook` does (never an allow by default). Starts a server when there is none.
import { writeSync } from "node:fs"
import { readStdin } from "../stdin.ts"
import { mark } from "../trace.ts"
import { decodeAnswer, encodeRequest, MAX_ANSWER } from "./protocol.ts"
import { binaryIdentity, socketPath, unsafeDir, unsafeSocket } from "./where.ts"

/** How long the client waits for an answer before deciding itself (CCODE_HOOK_WARM_TIMEOUT_MS). */
const TIMEOUT_MS = 5_000

/** argv after `hook`: what `ccode hook` takes, plus --warm. */
export async function hookWarmMain(argv: string[]): Promise<number> {
  mark("entry")
  const args = argv.filter((a) => a !== "--warm")
  const stdin = readStdin()
  mark("stdin")
  const start: string[] = []
  const answer = await viaServer(args, stdin, start).catch(() => undefined)
  mark(answer ? "warm answer" : "no answer")
  if (answer) {
    if (answer.stdout.length) writeSync(1, answer.stdout)
    if (answer.stderr.length) writeSync(2, answer.stderr)
    return answer.code
  }
  const code = await (await import("../hook.ts")).hookMain(args, stdin)
  // after the decision: the server's start-up must not compete with it for the processor
  for (const path of start) startServer(path)
  return code
}

/** The server's answer; undefined when the call must be decided here (`start` gets the socket to start
 *  a server on when there is none). */
async function viaServer(args: string[], stdin: string, start: string[]): Promise<ReturnType<typeof decodeAnswer>> {
  // only the compiled binary: its file is its whole identity (a source checkout's modules are not)
  if (!Bun.main.startsWith("/$bunfs/")) return undefined
  const uid = process.getuid!()
  const path = socketPath(process.env, dbFlag(args), binaryIdentity(), uid)
  if (!path) return undefined
  const dir = path.slice(0, path.lastIndexOf("/"))
  const dirProblem = unsafeDir(dir, uid)
  if (dirProblem) {
    // a missing folder is made (mode 0700) by the server; one of the wrong kind or owner is left alone
    if (dirProblem.endsWith("does not exist")) start.push(path)
    return undefined
  }
  const socketProblem = unsafeSocket(path, uid)
  if (socketProblem) {
    if (socketProblem.endsWith("does not exist")) start.push(path)
    return undefined
  }
  mark("socket found")
  const request = encodeRequest({ argv: args, env: process.env as Record<string, string>, cwd: process.cwd(), umask: process.umask(), stdin })
  const reply = await exchange(path, request, timeoutMs())
  if (reply === "refused") {
    start.push(path)
    return undefined
  }
  return reply === undefined ? undefined : decodeAnswer(reply)
}

function dbFlag(args: string[]): string | undefined {
  let db: string | undefined
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--db") db = args[++i]
    else if (args[i]!.startsWith("--db=")) db = args[i]!.slice(5)
  }
  return db
}

function timeoutMs(): number {
  const n = Number(process.env.CCODE_HOOK_WARM_TIMEOUT_MS)
  return Number.isFinite(n) && n >= 50 && n <= 600_000 ? n : TIMEOUT_MS
}

/** Sends the request and reads the answer until the server closes; "refused" when no server listens. */
function exchange(path: string, request: string, timeout: number): Promise<string | "refused" | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    let settled = false
    const settle = (value: string | "refused" | undefined) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(value)
    }
    const timer = setTimeout(() => settle(undefined), timeout)
    let pending = Buffer.from(request)
    const flush = (socket: { write(data: Uint8Array): number }) => {
      while (pending.length > 0) {
        const n = socket.write(pending)
        if (n <= 0) return
        pending = pending.subarray(n)
      }
    }
    Bun.connect({
      unix: path,
      socket: {
        open: flush,
        drain: flush,
        data(socket, data) {
          size += data.length
          if (size > MAX_ANSWER) {
            socket.terminate()
            return settle(undefined)
          }
          chunks.push(Buffer.from(data))
        },
        close: () => settle(Buffer.concat(chunks).toString("utf8")),
        error: () => settle(undefined),
        connectError: (_socket, error) => settle(refusal(error) ? "refused" : undefined),
      },
    }).then(
      (socket) => {
        if (settled) socket.terminate()
        // the request in whole, then wait for the answer and the server's close
      },
      (error: unknown) => settle(refusal(error) ? "refused" : undefined),
    )
  })
}

function refusal(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code
  return code === "ECONNREFUSED" || code === "ENOENT"
}

// A detached server of its own session, stdio on /dev/null, in `/`: it outlives this call and the host's
// terminal. Our folder is passed on: its first spare worker is started there, for this host's next call.
function startServer(path: string): void {
  try {
    Bun.spawn([process.execPath, "__hook-server", path, process.cwd()], { stdio: ["ignore", "ignore", "ignore"], detached: true, cwd: "/", env: process.env }).unref()
  } catch {
    // no server this time: the call is decided in-process all the same
  }
}
