// The corpus: every command gets at least its risk floor, the decision the bundled policies must reach,
// the hidden commands of bypass shapes as parts of their own, and the same result on both readers.
import { beforeAll, describe, expect, test } from "bun:test"
import { riskRank } from "../../core/base/risk.ts"
import { analyzeShellSync, isPlainCommand, loadParser } from "../../core/shell/index.ts"
import { CORPUS, CORPUS_CONTEXT } from "./corpus.ts"
import { bundledDecision } from "./bundled-rules.ts"
import { splitSimpleList } from "../../core/shell/list.ts"

beforeAll(() => loadParser())

const label = (cmd: string) => (cmd.length > 80 ? `${cmd.slice(0, 60)}... (${cmd.length} chars)` : cmd).replace(/\n/g, "\\n")

describe("shell corpus", () => {
  test("holds more than 300 commands, none twice", () => {
    expect(CORPUS.length).toBeGreaterThan(300)
    expect(new Set(CORPUS.map((e) => e.cmd)).size).toBe(CORPUS.length)
  })

  for (const entry of CORPUS) {
    test(label(entry.cmd), () => {
      const a = analyzeShellSync(entry.cmd, CORPUS_CONTEXT)
      const why = `${entry.cmd} -> ${a.risk} (${a.reasons.join("; ")}) parts: ${a.commands.map((c) => `${c.program}[${c.risk}]`).join(", ")}`
      expect(riskRank(a.risk) >= riskRank(entry.risk) ? entry.risk : `${a.risk} < floor ${entry.risk}: ${why}`).toBe(entry.risk)
      expect({ default: bundledDecision(a, "default"), strict: bundledDecision(a, "strict"), why }).toEqual({ default: entry.default, strict: entry.strict, why })
      const programs = new Set(a.commands.map((c) => c.program))
      for (const p of entry.programs ?? []) expect(programs.has(p) ? p : `${p} missing from ${[...programs].join(",")}`).toBe(p)
    })
  }
})

describe("the plain fast path", () => {
  const plain = CORPUS.filter((e) => isPlainCommand(e.cmd))

  test("covers a good share of the corpus", () => {
    expect(plain.length).toBeGreaterThan(100)
  })

  test("agrees with tree-sitter on every plain command of the corpus", () => {
    for (const e of plain) {
      const fast = analyzeShellSync(e.cmd, CORPUS_CONTEXT)
      const slow = analyzeShellSync(e.cmd, CORPUS_CONTEXT, { fastPath: false })
      expect({ cmd: e.cmd, analysis: fast }).toEqual({ cmd: e.cmd, analysis: slow })
    }
  })
})

describe("the simple-list fast path (plain commands joined by && || ;)", () => {
  const lists = CORPUS.filter((e) => splitSimpleList(e.cmd) !== undefined)
  // every pair of plain corpus commands, joined by every operator, read both ways
  const plain = CORPUS.filter((e) => isPlainCommand(e.cmd)).map((e) => e.cmd)
  const joined: string[] = []
  for (const [i, a] of plain.entries()) for (const op of [" && ", " || ", "; "]) joined.push(`${a}${op}${plain[(i * 7 + 3) % plain.length]!}`)

  test("takes lists from the corpus and never a shape it should not", () => {
    expect(lists.length).toBeGreaterThan(10)
    for (const cmd of ["a | b", "curl -fsSL x.sh | bash", "a & b", "a |& b", "a;; b", "cd x && rm -rf *", "ls;", "&& ls", "a && $(b)", "a >out && b", "source x; ls", "FOO=1 && ls"]) {
      expect({ cmd, taken: splitSimpleList(cmd) !== undefined }).toEqual({ cmd, taken: false })
    }
  })

  test("agrees with tree-sitter on every list of the corpus and on every joined pair", () => {
    const taken = [...lists.map((e) => e.cmd), ...joined].filter((cmd) => splitSimpleList(cmd) !== undefined)
    expect(taken.length).toBeGreaterThan(plain.length * 2)
    for (const cmd of taken) {
      const fast = analyzeShellSync(cmd, CORPUS_CONTEXT)
      const slow = analyzeShellSync(cmd, CORPUS_CONTEXT, { fastPath: false })
      expect({ cmd, analysis: fast }).toEqual({ cmd, analysis: slow })
    }
  })
})
