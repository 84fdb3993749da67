// Runner overhead per scripted step on each store: a 200-step plan of `true` through the compiled
// binary with CCODE_DB a SQLite file, then a PostgreSQL database (a throwaway server on 127.0.0.1,
// fsync on), alternating, three runs each; the bash loop of the same commands is subtracted.
// Wall time per step (median) and the ccode process's CPU time per step (children included).
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { benchBinary, median, report, scratch } from "./lib.ts"
import { findPgBin, PG_MISSING, startPg } from "../tests/store/postgres.ts"

const STEPS = 200
const ROUNDS = 3
if (!findPgBin()) {
  console.error(`runner on postgres: skipped — ${PG_MISSING}`)
  process.exit(0)
}
const bin = await benchBinary()
const pg = await startPg({ durable: true })
try {
  const steps = Array.from({ length: STEPS }, (_, i) => `  - id: s${i}\n    run: "true"`).join("\n")
  const task = `version: 1\nname: bench\nsteps:\n${steps}\n`
  const url = await pg.createDatabase()
  const migrate = Bun.spawnSync([bin, "db", "migrate", "--db", url], { stdout: "ignore", stderr: "pipe" })
  if (migrate.exitCode !== 0) throw new Error(`db migrate failed: ${migrate.stderr.toString()}`)
  const measured: Record<"sqlite" | "postgres", { wall: number[]; cpu: number[] }> = { sqlite: { wall: [], cpu: [] }, postgres: { wall: [], cpu: [] } }
  for (let round = 0; round < ROUNDS; round++) {
    for (const backend of ["sqlite", "postgres"] as const) {
      const sb = scratch()
      writeFileSync(join(sb.dir, "task.yaml"), task)
      const env = backend === "postgres" ? { ...sb.env, CCODE_DB: url } : sb.env
      const t0 = performance.now()
      const run = Bun.spawnSync([bin, "run", "task.yaml", "--non-interactive", "--quiet", "--yes", "--sandbox", "off"], { cwd: sb.dir, env, stdout: "ignore", stderr: "pipe" })
      const wall = performance.now() - t0
      if (run.exitCode !== 0) throw new Error(`the ${backend} run failed (exit ${run.exitCode}): ${run.stderr.toString()}`)
      const t1 = performance.now()
      Bun.spawnSync(["bash", "-c", `for i in $(seq ${STEPS}); do bash -c true; done`], { cwd: sb.dir, stdout: "ignore" })
      measured[backend].wall.push((wall - (performance.now() - t1)) / STEPS)
      measured[backend].cpu.push(Number(run.resourceUsage.cpuTime.total) / 1000 / STEPS)
    }
  }
  for (const backend of ["sqlite", "postgres"] as const) {
    report({ name: `runner overhead per step, ${backend} (200 x \`true\`, vs bash loop)`, value: round(median(measured[backend].wall)), unit: "ms/step" })
    report({ name: `ccode CPU time per step, ${backend} (children included)`, value: round(median(measured[backend].cpu)), unit: "ms/step" })
  }
} finally {
  await pg.stop()
}

function round(n: number): number {
  return Math.round(n * 100) / 100
}
