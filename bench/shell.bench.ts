// Shell analysis throughput: plain commands (analysed entirely on the fast path, tree-sitter asleep) and
// compound ones (parsed), and what the first tree-sitter parse costs a fresh process.
// `bun run bench/shell.bench.ts`. Rates are per CPU-second of this process, so other load on the
// machine does not count against them.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { analyzeShellSync, loadParser, ParserNotLoaded } from "../core/shell/index.ts"
import { CORPUS, CORPUS_CONTEXT } from "../tests/shell/corpus.ts"
import { median, report } from "./lib.ts"

// plain: the corpus commands the fast path analyses whole, before tree-sitter is ever loaded
const plain: string[] = []
const compound: string[] = []
for (const { cmd } of CORPUS) {
  if (cmd.length > 4096) continue
  try {
    analyzeShellSync(cmd, CORPUS_CONTEXT)
    plain.push(cmd)
  } catch (e) {
    if (!(e instanceof ParserNotLoaded)) throw e
    compound.push(cmd)
  }
}

function cpuMicros(): number {
  const u = process.cpuUsage()
  return u.user + u.system
}

function perSecond(commands: string[]): number {
  for (let r = 0; r < 20; r++) for (const c of commands) analyzeShellSync(c, CORPUS_CONTEXT)
  const rounds: number[] = []
  for (let r = 0; r < 7; r++) {
    let n = 0
    const start = cpuMicros()
    while (cpuMicros() - start < 200_000) {
      for (const c of commands) analyzeShellSync(c, CORPUS_CONTEXT)
      n += commands.length
    }
    rounds.push(n / ((cpuMicros() - start) / 1e6))
  }
  return Math.round(median(rounds))
}

function firstParseMs(): number {
  const dir = mkdtempSync(join(tmpdir(), "ccode-shell-bench-"))
  const file = join(dir, "first.ts")
  writeFileSync(file, `
import { analyzeShell } from ${JSON.stringify(join(import.meta.dir, "../core/shell/index.ts"))}
const ctx = { cwd: "/w", workspace: "/w", home: "/h", env: {} }
const start = performance.now()
await analyzeShell("git status && ls -la | head -5", ctx)
console.log(performance.now() - start)
`)
  try {
    const times: number[] = []
    for (let i = 0; i < 5; i++) times.push(Number(Bun.spawnSync(["bun", "run", file]).stdout.toString().trim()))
    return Math.round(median(times) * 10) / 10
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const plainRate = perSecond(plain)
report({ name: `shell plain commands analysed (${plain.length} distinct, fast path)`, value: plainRate, unit: "/s", budget: ">= 200000", ok: plainRate >= 200_000 })
await loadParser()
const compoundRate = perSecond(compound)
report({ name: `shell compound commands analysed (${compound.length} distinct, tree-sitter)`, value: compoundRate, unit: "/s", budget: ">= 20000", ok: compoundRate >= 20_000 })
report({ name: "shell first tree-sitter parse in a fresh process (init + parse)", value: firstParseMs(), unit: "ms", budget: "informational (init ~40 ms)" })
