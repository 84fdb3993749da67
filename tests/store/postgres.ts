// A throwaway PostgreSQL server for tests: initdb + pg_ctl in a temp dir, listening on 127.0.0.1 on
// a free port (and a unix socket in the same dir), started once per test file and stopped and removed
// after. Each test takes a fresh database of its own (createDatabase). As root, the server runs as
// `nobody` (PostgreSQL refuses to run as root). Should a test process die before stop(), the test
// root's removal takes the data dir, and the server shuts itself down when it finds its
// postmaster.pid gone (it checks about once a minute).
import { SQL } from "bun"
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, dirname, join } from "node:path"
import { removeTree } from "../tmp.ts"

export interface PgServer {
  /** a URL for a new, empty database of its own */
  createDatabase(): Promise<string>
  stop(): Promise<void>
}

/** initdb and pg_ctl: on PATH, else Debian's /usr/lib/postgresql/<version>/bin (newest first). */
export function findPgBin(): { initdb: string; pgCtl: string } | undefined {
  const PATH = process.env.PATH ?? ""
  const initdb = Bun.which("initdb", { PATH })
  const pgCtl = Bun.which("pg_ctl", { PATH })
  if (initdb && pgCtl) return { initdb, pgCtl }
  const root = "/usr/lib/postgresql"
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a))
  for (const v of versions) {
    const bin = join(root, v, "bin")
    if (existsSync(join(bin, "initdb")) && existsSync(join(bin, "pg_ctl"))) return { initdb: join(bin, "initdb"), pgCtl: join(bin, "pg_ctl") }
  }
  return undefined
}

export const PG_MISSING = "PostgreSQL server binaries (initdb, pg_ctl) not found on PATH or in /usr/lib/postgresql/*/bin: install Debian's `postgresql` package (.ci/run does)"

/** `durable`: fsync on, as a real server runs (the bench); tests turn it off (-F) for speed. */
export async function startPg(opts: { durable?: boolean } = {}): Promise<PgServer> {
  const bin = findPgBin()
  if (!bin) throw new Error(PG_MISSING)
  const dir = mkdtempSync(join(tmpdir(), "ccode-pg-"))
  const asRoot = process.getuid?.() === 0
  // PostgreSQL will not run as root: run it as nobody, who must be able to reach and own its dir
  const as = asRoot ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
  try {
    if (asRoot) {
      reachable(dir)
      chownSync(dir, 65534, 65534)
    }
    await exec([...as, bin.initdb, "-D", join(dir, "data"), "-U", "ccode", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"])
    let port = 0
    for (let attempt = 0; ; attempt++) {
      port = freePort()
      const options = `-k ${dir} -h 127.0.0.1 -p ${port}${opts.durable ? "" : " -F"} -c max_connections=200 -c shared_buffers=32MB`
      const started = await exec([...as, bin.pgCtl, "-D", join(dir, "data"), "-l", join(dir, "log"), "-w", "-t", "60", "-o", options, "start"], false)
      if (started.code === 0) break
      // another process took the port between our probe and the server's bind: try another
      if (attempt >= 3) throw new Error(`pg_ctl start failed: ${started.err}\n${await Bun.file(join(dir, "log")).text().catch(() => "")}`)
    }
    const base = `postgres://ccode@127.0.0.1:${port}`
    const admin = new SQL(`${base}/postgres`, { max: 1 })
    let n = 0
    return {
      async createDatabase() {
        const name = `t${process.pid}_${++n}`
        await admin.unsafe(`CREATE DATABASE ${name}`)
        return `${base}/${name}`
      },
      async stop() {
        await admin.close()
        await exec([...as, bin.pgCtl, "-D", join(dir, "data"), "-m", "immediate", "-w", "-t", "60", "stop"], false)
        removeTree(dir)
      },
    }
  } catch (error) {
    await exec([...as, bin.pgCtl, "-D", join(dir, "data"), "-m", "immediate", "-w", "stop"], false)
    removeTree(dir)
    throw error
  }
}

// every folder above the server's must let `nobody` pass: a test root made by mkdtemp (ccode-*) is
// 0700 and gets the search bit; any other closed folder is not ours to open up
function reachable(dir: string): void {
  for (let d = dirname(dir); d !== "/"; d = dirname(d)) {
    const mode = statSync(d).mode
    if (mode & 0o001) continue
    if (!basename(d).startsWith("ccode-")) throw new Error(`${d} is closed to other users, so PostgreSQL (run as nobody) cannot reach ${dir}; set TMPDIR to a folder under /tmp`)
    chmodSync(d, (mode & 0o7777) | 0o001)
  }
}

function freePort(): number {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } })
  const port = server.port
  server.stop(true)
  return port
}

async function exec(cmd: string[], check = true): Promise<{ code: number; err: string }> {
  const proc = Bun.spawn(cmd, { stdout: "pipe", stderr: "pipe", env: { ...process.env, LC_ALL: "C" } })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  if (check && code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}: ${err || out}`)
  return { code, err: err || out }
}

/**
 * No PostgreSQL server binaries: under CI that is a broken set-up (.ci/run installs them), so the file
 * fails; on a developer's machine its tests are left out with a line saying why.
 */
export function pgMissing(what: string): void {
  if (process.env.CI) throw new Error(`${what}: ${PG_MISSING}`)
  console.warn(`left out: ${what}: ${PG_MISSING}`)
}
