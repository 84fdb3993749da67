// A step printing 1 GB: ccode keeps a bounded head/tail window while the output streams, so its
// memory stays flat whatever a step prints. Budget: peak RSS <= 150 MB.
import { rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { benchBinary, report, scratch } from "./lib.ts"

const bin = await benchBinary()
const sb = scratch()
try {
  // 1 GiB of log-like lines (no secrets), shown live as with `ccode run --json`
  writeFileSync(join(sb.dir, "task.yaml"), "version: 1\nsteps:\n  - id: loud\n    run: \"yes 'build - compiling module 42 of 1000 ... ok' | head -c 1073741824\"\n    timeout: 10m\n")
  const started = performance.now()
  const proc = Bun.spawnSync(["/usr/bin/time", "-f", "peak-rss-kb %M", bin, "run", "task.yaml", "--yes", "--json"], { cwd: sb.dir, env: sb.env, stdout: "ignore", stderr: "pipe" })
  const seconds = (performance.now() - started) / 1000
  const rssKb = Number(/peak-rss-kb (\d+)/.exec(proc.stderr.toString())?.[1] ?? NaN)
  report({ name: "1 GB step output: peak RSS of ccode", value: Math.round(rssKb / 1024), unit: "MB", budget: "<= 150", ok: proc.exitCode === 0 && rssKb / 1024 <= 150 })
  report({ name: "1 GB step output: wall time", value: Math.round(seconds * 10) / 10, unit: "s" })
} finally {
  rmSync(sb.dir, { recursive: true, force: true })
}
