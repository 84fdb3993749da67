// `bun run bench`: runs every bench/*.bench.ts in its own process against the compiled binary and
// prints one table of figures with their budgets (results also in .bench/results.json).
import { mkdirSync, readdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { benchBinary, type BenchResult } from "./lib.ts"

const dir = import.meta.dir
const only = process.argv.slice(2)
// benchmarks that build big workspaces run only when named: `bun run bench scale`
const SLOW = new Set(["scale.bench.ts"])
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts") && (only.length ? only.some((o) => f.includes(o)) : !SLOW.has(f)))
  .sort()
if (!only.length) process.stderr.write(`(left out, slow: ${[...SLOW].join(", ")}; run \`bun run bench scale\`)\n`)
const bin = await benchBinary()
const results: (BenchResult & { file: string })[] = []
for (const file of files) {
  process.stderr.write(`bench ${file} ...\n`)
  const proc = Bun.spawnSync(["bun", "run", join(dir, file)], { env: { ...process.env, CCODE_BIN: bin }, stdout: "pipe", stderr: "inherit" })
  for (const line of proc.stdout.toString().split("\n")) {
    if (!line.startsWith("{")) continue
    try {
      results.push({ ...(JSON.parse(line) as BenchResult), file })
    } catch {
      // not a result line
    }
  }
  if (proc.exitCode !== 0) results.push({ file, name: `${file} failed (exit ${proc.exitCode})`, value: NaN, unit: "", ok: false })
}
const width = Math.max(...results.map((r) => r.name.length), 10)
for (const r of results) {
  const mark = r.ok === undefined ? " " : r.ok ? "✓" : "✗"
  console.log(`${mark} ${r.name.padEnd(width)}  ${String(r.value).padStart(10)} ${r.unit.padEnd(8)} ${r.budget ? `budget ${r.budget}` : ""}`)
}
mkdirSync(join(dir, "..", ".bench"), { recursive: true })
writeFileSync(join(dir, "..", ".bench", "results.json"), JSON.stringify(results, null, 2))
process.exit(results.some((r) => r.ok === false) ? 1 : 0)
