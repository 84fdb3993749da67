// Redaction end to end through the compiled binary: every fake secret of the corpus appears in a
// shell step's output, in a step's arguments and in an environment variable, and none of them
// reaches the database file (and its -wal), the JSONL events, summary.md, the terminal log or any
// audit export; the near-miss lines come through byte for byte.
import { Database } from "bun:sqlite"
import { describe, expect, test } from "bun:test"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { CORPUS, leaked, NEAR_MISSES } from "../redact/corpus.ts"
import { ccode, sandbox, type Sandbox } from "./harness.ts"

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
const envName = (i: number) => `CCTEST_SECRET_TOKEN_${i}`

function task(sb: Sandbox): string {
  sb.file("corpus.txt", `${[...CORPUS.map((e) => e.line), ...NEAR_MISSES].join("\n")}\n`)
  const steps: string[] = []
  // output only: the program prints what it read
  steps.push("  - id: cat", `    run: ${JSON.stringify("cat corpus.txt")}`)
  // in the arguments (and so in the output too), ten per step
  for (let i = 0; i < CORPUS.length; i += 10) {
    const lines = CORPUS.slice(i, i + 10).map((e) => quote(e.line)).join(" ")
    steps.push(`  - id: args${i / 10}`, `    run: ${JSON.stringify(`printf '%s\\n' ${lines}`)}`)
  }
  // from the environment
  steps.push("  - id: env", `    run: ${JSON.stringify("printenv | grep '^CCTEST_' | sort")}`)
  return sb.file("task.yaml", `version: 1\nname: leaky\nsteps:\n${steps.join("\n")}\n`)
}

// A near miss may share a harmless 12-character piece with a secret (a certificate and a private key
// both start with the same ASN.1 header): the near-miss lines, raw or JSON-escaped, are taken out of
// the haystack first, so what `leaked` finds is the secret and not its harmless neighbour.
const NEAR_MISS_LINES = NEAR_MISSES.flatMap((m) => m.split("\n")).filter((l) => l.length >= 12)
function scrub(text: string): string {
  for (const line of NEAR_MISS_LINES) text = text.replaceAll(line, "").replaceAll(JSON.stringify(line).slice(1, -1), "")
  return text
}

function leaksIn(where: string, text: string): string[] {
  const haystack = scrub(text)
  return CORPUS.filter((e) => leaked(haystack, e.secret)).map((e) => `${e.kind} in ${where}`)
}

interface Traces {
  sb: Sandbox
  runId: string
  code: number
  /** where a text came from -> the text */
  texts: Map<string, string>
}

/** One run over the corpus, then every place its data can end up. */
async function runCorpus(): Promise<Traces> {
  const sb = sandbox()
  task(sb)
  const env = Object.fromEntries(CORPUS.map((e, i) => [envName(i), e.secret]))
  const run = await ccode(sb, ["run", "task.yaml", "--yes", "--non-interactive", "--json"], { env, timeoutMs: 120_000 })
  const runId = (JSON.parse(run.stdout.split("\n")[0]!) as { run: string }).run
  // the same run again as a person at a terminal sees it (with --json the terminal log is silent)
  const human = await ccode(sb, ["run", "task.yaml", "--yes", "--non-interactive"], { env, timeoutMs: 120_000 })
  const texts = new Map<string, string>([["the terminal log", human.stderr + human.stdout], ["the --json event stream", run.stdout + run.stderr]])
  for (const file of [sb.db, `${sb.db}-wal`]) {
    if (existsSync(file)) texts.set(file.endsWith("-wal") ? "the -wal file" : "the database file", readFileSync(file).toString("latin1"))
  }
  const summary = join(sb.env.CCODE_HOME!, "runs", runId, "summary.md")
  texts.set("summary.md", existsSync(summary) ? readFileSync(summary, "utf8") : "")
  const exports: [string, string[]][] = [
    ["runs events --format jsonl", ["runs", "events", runId, "--format", "jsonl"]],
    ["runs show --json", ["runs", "show", runId, "--json"]],
    ...["table", "json", "jsonl", "csv", "md"].map((f): [string, string[]] => [`audit --format ${f}`, ["audit", "--run", runId, "--format", f]]),
    ["audit report", ["audit", "report", runId]],
    ["audit report --format json", ["audit", "report", runId, "--format", "json"]],
  ]
  for (const [label, args] of exports) {
    const out = await ccode(sb, args)
    texts.set(label, `${out.code === 0 ? "" : `exit ${out.code}`}${out.stdout}${out.stderr}`)
  }
  return { sb, runId, code: Math.max(run.code, human.code), texts }
}

let traces: Promise<Traces> | undefined
const corpusRun = () => (traces ??= runCorpus())
const leaksOf = (t: Traces, where: string[]) => where.flatMap((w) => leaksIn(w, t.texts.get(w) ?? ""))

// Where the runner stores what a step is (plan titles, the stored spec for resume, checkpoints).
const RUNNER_STORED = ["the database file", "the -wal file", "summary.md", "runs show --json"]

describe(`redaction end to end: ${CORPUS.length} fake secrets in output, arguments and env`, () => {
  test("the corpus is big enough: 60+ secrets, 25+ near misses", () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(60)
    expect(NEAR_MISSES.length).toBeGreaterThanOrEqual(25)
  })

  test("none reaches the terminal log, the event stream, the JSONL events or any audit export", async () => {
    const t = await corpusRun()
    expect(t.code).toBe(0)
    expect(leaksOf(t, [...t.texts.keys()].filter((w) => !RUNNER_STORED.includes(w)))).toEqual([])
  }, 180_000)

  test("none reaches the database file (or its -wal), summary.md or runs show", async () => {
    const t = await corpusRun()
    expect(leaksOf(t, RUNNER_STORED)).toEqual([])
  }, 180_000)

  test(`the ${NEAR_MISSES.length} near-miss lines come out of redaction byte for byte`, async () => {
    const t = await corpusRun()
    const db = new Database(t.sb.db, { readonly: true })
    const output = (db.query("SELECT output FROM calls WHERE run_id = ? AND item_id = 'cat'").get(t.runId) as { output: string }).output
    db.close()
    expect(NEAR_MISSES.filter((line) => !output.includes(line))).toEqual([])
    // on the terminal, output lines carry a prefix: each line of each near miss is there whole
    const log = t.texts.get("the terminal log")!
    expect(NEAR_MISS_LINES.filter((line) => !log.includes(line))).toEqual([])
  }, 180_000)
})
