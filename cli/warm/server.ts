// `ccode __hook-server SOCKET [FOLDER]` (internal): the warm hook server a `ccode hook --warm` client
// starts. It decides nothing itself and keeps nothing between calls: each call is decided by a fresh `ccode
// __hook-worker` process started with exactly the caller's environment and working directory (the
// spare one started ahead of time is used only when both are the same as the caller's), so a warm
// answer is what a fresh `ccode hook` process would print. What it saves is the start-up: the spare
// worker has loaded every module before the call arrives.
// Exits when idle (CCODE_HOOK_WARM_IDLE_MS, default 10 minutes), when its binary's file changes, and
// when its socket is no longer the one it made.
import { chmodSync, lstatSync, mkdirSync, unlinkSync } from "node:fs"
import { dirname } from "node:path"
import type { Socket } from "bun"
import { decodeRequest, encodeAnswer, MAX_REQUEST, type WarmRequest } from "./protocol.ts"
import { binaryIdentity, sameBinary, unsafeDir, unsafeSocket } from "./where.ts"
import { spareKey, spawnWorker, type Worker } from "./workers.ts"

const IDLE_MS = 10 * 60_000
/** Calls decided at once; more wait their turn (each is a process of its own). */
const MAX_WORKERS = 8
/** A worker still running after this is killed: its client has long decided in-process. */
const WORKER_LIMIT_MS = 120_000
/** How long after an answer the next spare worker is started. */
const SPARE_DELAY_MS = 50

interface Conn {
  chunks: Buffer[]
  size: number
  taken: boolean
  worker?: Worker
  closed: boolean
  /** writes what is left of the answer (the socket's buffer was full) */
  flush?: () => void
}

export async function hookServerMain(argv: string[]): Promise<number> {
  const path = argv[0]
  if (!path || !path.startsWith("/") || !path.endsWith(".sock")) return 2
  const uid = process.getuid!()
  const dir = dirname(path)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  if (unsafeDir(dir, uid)) return 2
  const binary = binaryIdentity()
  const idleMs = idleLimit()
  let active = 0
  let lastUse = Date.now()
  let spare: Worker | undefined
  const waiting: (() => void)[] = []

  const handlers = {
    open(socket: Socket<Conn>) {
      socket.data = { chunks: [], size: 0, taken: false, closed: false }
      lastUse = Date.now()
    },
    data(socket: Socket<Conn>, data: Buffer) {
      const conn = socket.data
      if (conn.taken) return socket.terminate()
      conn.size += data.length
      if (conn.size > MAX_REQUEST) return socket.terminate()
      conn.chunks.push(Buffer.from(data))
      if (data.indexOf(10) < 0) return
      conn.taken = true
      const req = decodeRequest(Buffer.concat(conn.chunks).toString("utf8"))
      conn.chunks = []
      if (!req) return socket.terminate()
      void serve(socket, req)
    },
    close(socket: Socket<Conn>) {
      socket.data.closed = true
      // the client gave up and decides itself: this worker's answer would go nowhere
      socket.data.worker?.process.kill()
    },
    drain(socket: Socket<Conn>) {
      socket.data.flush?.()
    },
    error(socket: Socket<Conn>) {
      socket.terminate()
    },
  }

  const listener = await listen(path, uid, handlers)
  if (!listener) return 0 // another server answers on this socket
  chmodSync(path, 0o600)
  const ino = lstatSync(path).ino
  // the first spare: the environment this server was started with is its first client's, and so is FOLDER
  const folder = argv[1]
  if (folder?.startsWith("/")) {
    try {
      spare = spawnWorker(process.env as Record<string, string>, folder)
    } catch {
      spare = undefined
    }
  }

  const shutdown = () => {
    clearInterval(watch)
    listener.stop(true)
    if (lstatSync(path, { throwIfNoEntry: false })?.ino === ino) unlinkSync(path)
    spare?.process.kill()
    process.exit(0)
  }
  const watch = setInterval(() => {
    let current
    try {
      current = binaryIdentity(process.execPath)
    } catch {
      return shutdown()
    }
    if (!sameBinary(current, binary)) return shutdown()
    // another server took the name (two started at once): this one is unreachable
    if (lstatSync(path, { throwIfNoEntry: false })?.ino !== ino) return shutdown()
    if (active === 0 && Date.now() - lastUse > idleMs) shutdown()
  }, Math.min(1_000, Math.max(50, idleMs / 4)))
  process.on("SIGTERM", shutdown)
  process.on("SIGINT", shutdown)
  process.on("SIGHUP", shutdown)
  return await new Promise<number>(() => {})

  async function serve(socket: Socket<Conn>, req: WarmRequest): Promise<void> {
    if (active >= MAX_WORKERS) await new Promise<void>((go) => waiting.push(go))
    active++
    try {
      if (socket.data.closed) return
      let worker: Worker
      if (spare && spare.key === spareKey(req.env, req.cwd) && alive(spare)) {
        worker = spare
        spare = undefined
      } else worker = spawnWorker(req.env, req.cwd)
      socket.data.worker = worker
      const answer = await worker.decide(req, WORKER_LIMIT_MS)
      // answered: the worker goes on to close the store and exit, and must be let be
      socket.data.worker = undefined
      if (!socket.data.closed && answer) send(socket, encodeAnswer(answer.code, answer.stdout, answer.stderr))
      else socket.terminate()
    } catch {
      socket.terminate()
    } finally {
      active--
      lastUse = Date.now()
      waiting.shift()?.()
      // the next call of this caller most likely comes with the same environment and folder; started a
      // moment later, so its loading does not compete with the client printing the answer for a core
      setTimeout(() => replenish(req), SPARE_DELAY_MS)
    }
  }

  // a spare for another environment or folder is replaced: the latest caller's is the likeliest next
  function replenish(req: WarmRequest): void {
    const key = spareKey(req.env, req.cwd)
    if (spare && alive(spare) && spare.key === key) return
    spare?.process.kill()
    try {
      spare = spawnWorker(req.env, req.cwd)
    } catch {
      spare = undefined
    }
  }
}

function alive(worker: Worker): boolean {
  return worker.process.exitCode === null && !worker.process.killed && worker.process.signalCode === null
}

function send(socket: Socket<Conn>, text: string): void {
  let pending = Buffer.from(text)
  const flush = () => {
    while (pending.length > 0) {
      const n = socket.write(pending)
      if (n <= 0) return
      pending = pending.subarray(n)
    }
    socket.end()
  }
  socket.data.flush = flush
  flush()
}

function idleLimit(): number {
  const n = Number(process.env.CCODE_HOOK_WARM_IDLE_MS)
  return Number.isFinite(n) && n > 0 ? n : IDLE_MS
}

// Listens on `path`; undefined when a live server already does. A socket nobody answers on is left
// over from a server that died: it is removed (only a socket of ours) and the name taken.
async function listen(path: string, uid: number, socket: Bun.SocketHandler<Conn>) {
  try {
    return Bun.listen<Conn>({ unix: path, socket })
  } catch (error) {
    if ((error as { code?: string }).code !== "EADDRINUSE") throw error
  }
  if (await answers(path)) return undefined
  if (unsafeSocket(path, uid)) return undefined
  unlinkSync(path)
  return Bun.listen<Conn>({ unix: path, socket })
}

function answers(path: string): Promise<boolean> {
  return Bun.connect({ unix: path, socket: { data() {}, open(s) { s.end() } } }).then(() => true, () => false)
}
