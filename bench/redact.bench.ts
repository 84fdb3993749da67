// Redaction throughput on 50 MB of mixed logs with secrets sprinkled in (budget: >= 100 MB/s),
// in-process (the engine does no I/O, so the binary adds nothing). Run alone: `bun run bench/redact.bench.ts`;
// prints one JSON object per line in the shared format (bench/lib.ts).
import { createRedactor } from "../core/redact/index.ts"
import { CORPUS } from "../tests/redact/corpus.ts"
import { report } from "./lib.ts"

const TARGET_BYTES = 50 * 1024 * 1024
/** One secret every this many lines. */
const SECRET_EVERY = 200

const ordinary = [
  (i: number) => `2024-05-01T10:${pad(i % 60)}:${pad((i * 7) % 60)}.${i % 1000}Z INFO  http GET /api/v1/users/${i}?page=${i % 9} 200 ${i % 97}ms request_id=550e8400-e29b-41d4-a716-${String(446655440000 + i)}`,
  (i: number) => `commit ${hex(i)}${hex(i * 31)}${hex(i * 17)}${hex(i * 13)}${hex(i * 7)}\nAuthor: Dev ${i} <dev${i}@example.com>\n\n    fix: handle empty password field in login form (#${i})`,
  (i: number) => `    at Object.<anonymous> (/home/runner/work/app/app/src/server/routes/user-${i % 50}.ts:${i % 300}:${i % 80})`,
  (i: number) => `npm WARN deprecated inflight@1.0.6: This module is not supported, and leaks memory. (${i})`,
  (i: number) => `{"level":"info","ts":${1714550000 + i},"msg":"token refresh scheduled","max_tokens":4096,"input_tokens":${i % 5000},"model":"claude-3-5-sonnet-20241022"}`,
  (i: number) => `[${i}] Downloading https://registry.npmjs.org/lodash/-/lodash-4.17.${i % 22}.tgz (sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+LFTGHVxVjcXPs17LhbZVGedAJv8XZ1tvj5FvSg==)`,
  (i: number) => `diff --git a/src/config.ts b/src/config.ts\n-  const secretName = "prod-${i}"\n+  const secretName = process.env.SECRET_NAME ?? "prod-${i}"`,
  (i: number) => `docker: pulling ghcr.io/acme/app@sha256:${hex(i)}${hex(i + 1)}${hex(i + 2)}${hex(i + 3)}${hex(i + 4)}${hex(i + 5)}${hex(i + 6)}${hex(i + 7)} layer ${i % 12}/12`,
  (i: number) => `✓ tests/unit/parser.test.ts (${i % 40} tests) ${i % 900}ms — pass: ${i % 40}, fail: 0`,
  (i: number) => `WARN  slow query (${i % 2000}ms): SELECT id, email FROM users WHERE org_id = $1 AND created_at > now() - interval '1 day'`,
]

function pad(n: number): string {
  return String(n).padStart(2, "0")
}

function hex(n: number): string {
  return ((n * 2654435761) >>> 0).toString(16).padStart(8, "0")
}

function mixedLog(): string {
  const parts: string[] = []
  let size = 0
  for (let i = 0; size < TARGET_BYTES; i++) {
    const line = i % SECRET_EVERY === 0 ? CORPUS[(i / SECRET_EVERY) % CORPUS.length]!.line : ordinary[i % ordinary.length]!(i)
    parts.push(line)
    size += line.length + 1
  }
  return parts.join("\n")
}

/** `min`: a throughput floor; `max`: a cost ceiling; neither: informational. */
function result(name: string, value: number, unit: string, limit: { min?: number; max?: number } = {}): void {
  const rounded = Math.round(value * 10) / 10
  if (limit.min !== undefined) report({ name, value: rounded, unit, budget: `>= ${limit.min}`, ok: value >= limit.min })
  else if (limit.max !== undefined) report({ name, value: rounded, unit, budget: `<= ${limit.max}`, ok: value <= limit.max })
  else report({ name, value: rounded, unit })
}

/** The best wall time of `runs` runs, in ms; `cpu` gets the best CPU time (user + system) beside it:
 *  on a machine shared with other builds the wall clock swings twofold between runs, CPU time less. */
function best(runs: number, f: () => void, cpu?: { ms: number }): number {
  let min = Infinity
  for (let i = 0; i < runs; i++) {
    const c = process.cpuUsage()
    const t = performance.now()
    f()
    min = Math.min(min, performance.now() - t)
    const used = process.cpuUsage(c)
    if (cpu) cpu.ms = Math.min(cpu.ms, (used.user + used.system) / 1000)
  }
  return min
}

const log = mixedLog()
const mb = log.length / (1024 * 1024)
const env = {
  GITHUB_TOKEN: "ghp_" + "Q".repeat(36),
  OPENAI_API_KEY: "sk-proj-" + "x1".repeat(40),
  DATABASE_PASSWORD: "correct-horse-battery-staple",
  DEPLOY_KEY: "dk_" + "7".repeat(30),
  HOME: "/home/runner",
}
const redactor = createRedactor({ env, envNames: ["DEPLOY_KEY"], home: "/home/runner" })

// correctness guard: a fast redactor that leaks is worthless
const out = redactor.text(log)
const leaks = CORPUS.filter((c) => out.includes(c.secret)).map((c) => c.kind)
if (leaks.length > 0) throw new Error(`secrets survived redaction: ${leaks.join(", ")}`)

const textCpu = { ms: Infinity }
const textMs = best(3, () => redactor.text(log), textCpu)
result(`redaction: text() on ${Math.round(mb)} MB of mixed logs`, mb / (textMs / 1000), "MB/s", { min: 100 })
result("redaction: the same, MB per CPU second", mb / (textCpu.ms / 1000), "MB/s")

const CHUNK = 64 * 1024
const streamCpu = { ms: Infinity }
const streamMs = best(3, () => {
  const s = redactor.stream()
  for (let i = 0; i < log.length; i += CHUNK) s.push(log.slice(i, i + CHUNK))
  s.flush()
}, streamCpu)
result("redaction: the same log streamed in 64 KB chunks", mb / (streamMs / 1000), "MB/s", { min: 100 })
result("redaction: streamed, MB per CPU second", mb / (streamCpu.ms / 1000), "MB/s")

const blob = "data:image/png;base64," + btoa("\x89PNG".repeat(1_000_000))
const blobMs = best(3, () => redactor.text(blob))
result("redaction: one 5 MB base64 line", blob.length / (1024 * 1024) / (blobMs / 1000), "MB/s", { min: 100 })

const args = {
  command: "curl -H 'Authorization: Bearer abc123def456' https://api.example.com/v1/items?page=2",
  cwd: "/home/runner/work/app",
  env: { NODE_ENV: "production", API_TOKEN: "t0k3n-value-123456" },
  files: ["src/index.ts", "src/config.ts"],
  user_id: "usr_1234567890abcdef",
}
const calls = 20_000
const valueMs = best(3, () => {
  for (let i = 0; i < calls; i++) redactor.value(args)
})
result("redaction: value() of a typical tool call's args", (valueMs * 1000) / calls, "µs/call")

const creates = 2_000
const createMs = best(3, () => {
  for (let i = 0; i < creates; i++) createRedactor({ env, envNames: ["DEPLOY_KEY"], home: "/home/runner" })
})
result("redaction: createRedactor() with env, policy names and home", (createMs * 1000) / creates, "µs")
