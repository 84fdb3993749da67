// `bun scripts/shell-identity.ts [REV] [FUZZ]`: proves a change to core/shell left every analysis as it
// was. REV's core/ (default main) is unpacked into a temp dir and both analyses run over the corpora
// (tests/shell/corpus.ts, attacks-*.yaml with their links, controls.txt) and FUZZ (default 6000)
// mutations of them, in four contexts (env variables that change the analysis, risk overrides, links on
// disk, embedded repositories): the JSON of each ShellAnalysis must be identical. Exit 1 on a difference.
// For speed-ups, not for changes meant to change decisions.
import { mkdtempSync, rmSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as current from "../core/shell/index.ts"
import { CORPUS, CORPUS_CONTEXT } from "../tests/shell/corpus.ts"
import { ATTACK_CONTEXT, linkResolver, loadAttacks, loadControls } from "../tests/shell/attacks.ts"
import { random } from "../tests/shell/seeded.ts"

const rev = process.argv[2] ?? "main"
const fuzzCount = Number(process.argv[3] ?? 6000)
const root = join(import.meta.dir, "..")
const dir = mkdtempSync(join(tmpdir(), "ccode-shell-identity-"))
try {
  const archive = Bun.spawnSync(["git", "archive", rev, "core"], { cwd: root })
  if (archive.exitCode !== 0) throw new Error(`git archive ${rev}: ${archive.stderr.toString().trim()}`)
  Bun.spawnSync(["tar", "-x", "-C", dir], { stdin: archive.stdout })
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"))
  const before = (await import(join(dir, "core/shell/index.ts"))) as typeof current
  await current.loadParser()
  await before.loadParser()
  const { compared, differ } = compare(before.analyzeShellSync, current.analyzeShellSync)
  console.log(`${compared} analyses compared with ${rev}: ${differ.length} differ`)
  for (const d of differ.slice(0, 5)) console.log(d)
  if (differ.length) process.exitCode = 1
} finally {
  rmSync(dir, { recursive: true, force: true })
}

type Analyze = typeof current.analyzeShellSync

function compare(before: Analyze, after: Analyze): { compared: number; differ: string[] } {
  const attacks = loadAttacks()
  const sources = [...CORPUS.map((e) => e.cmd), ...attacks.map((a) => a.cmd), ...loadControls()]
  const contexts: current.AnalyzeContext[] = [
    CORPUS_CONTEXT,
    ATTACK_CONTEXT,
    { ...CORPUS_CONTEXT, env: { ...CORPUS_CONTEXT.env, TMPDIR: "/scratch/", POSIXLY_CORRECT: "1", AWS_SECRET_ACCESS_KEY: "x", XDG_CONFIG_HOME: "/cfg" }, overrides: { unknown: "low", "write-files": "high", build: "safe" } },
    {
      ...ATTACK_CONTEXT, cwd: "/home/dev/project/sub",
      realpath: linkResolver({ "/home/dev/project/docs": "/home/dev/.aws", "/home/dev/project/l": "/" }),
      gitRepo: (d) => (d.includes("vendor") ? d : "own"),
      projectAbove: (p) => (p === "make" ? "/home/dev/Makefile" : undefined),
    },
  ]
  let compared = 0
  const differ: string[] = []
  const check = (cmd: string, ctx: current.AnalyzeContext) => {
    compared++
    const a = outcome(before, cmd, ctx)
    const b = outcome(after, cmd, ctx)
    if (a !== b) differ.push(`${JSON.stringify(cmd)}\n  before ${a.slice(0, 400)}\n  after  ${b.slice(0, 400)}`)
  }
  const fuzz = mutations(sources, fuzzCount)
  for (const ctx of contexts) for (const cmd of [...sources, ...fuzz]) check(cmd, ctx)
  for (const a of attacks) if (a.links) check(a.cmd, { ...ATTACK_CONTEXT, realpath: linkResolver(a.links) })
  return { compared, differ }
}

function outcome(analyze: Analyze, cmd: string, ctx: current.AnalyzeContext): string {
  try {
    return JSON.stringify(analyze(cmd, ctx))
  } catch (e) {
    return `throws ${String(e)}`
  }
}

// the corpora's commands with a word replaced, added or swapped for another program, and new commands
// of their programs and words (a fixed seed: a difference is found again on the next run)
function mutations(sources: string[], count: number): string[] {
  const pick = random(7)
  const vocabulary = [...new Set(sources.flatMap((c) => c.split(/\s+/)).filter((w) => w && w.length < 40))]
  const programs = [...new Set(sources.map((c) => c.trim().split(/\s+/)[0]!).filter(Boolean))]
  const word = () => vocabulary[pick(vocabulary.length)]!
  const out: string[] = []
  for (let i = 0; i < count; i++) {
    const words = sources[pick(sources.length)]!.split(" ")
    const how = pick(4)
    if (how === 0) words[pick(words.length)] = word()
    else if (how === 1) words.splice(pick(words.length + 1), 0, word())
    else if (how === 2) words[0] = programs[pick(programs.length)]!
    else {
      words.length = 0
      words.push(programs[pick(programs.length)]!)
      for (let j = pick(6); j > 0; j--) words.push(word())
    }
    out.push(words.join(" "))
  }
  return out
}
