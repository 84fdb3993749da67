// The fast paths (plain commands, simple lists) must read every command they take exactly as the
// tree-sitter walk does: commands made from the corpora's own words, spacing and operators, and
// random strings of the characters that decide whether a command is plain, analysed both ways.
import { beforeAll, describe, expect, test } from "bun:test"
import { riskRank } from "../../core/base/risk.ts"
import { analyzeShellSync, isPlainCommand, loadParser } from "../../core/shell/index.ts"
import { splitSimpleList } from "../../core/shell/list.ts"
import { CORPUS, CORPUS_CONTEXT } from "./corpus.ts"
import { ATTACK_CONTEXT, loadAttacks, loadControls } from "./attacks.ts"
import { random } from "./seeded.ts"

beforeAll(() => loadParser())


const sources = [...CORPUS.map((e) => e.cmd), ...loadAttacks().map((a) => a.cmd), ...loadControls()]
const vocabulary = [...new Set(sources.flatMap((c) => c.split(/\s+/)).filter((w) => w && w.length < 40))]
const programs = [...new Set(sources.map((c) => c.trim().split(/\s+/)[0]!).filter(Boolean))]
const edges = [
  "~", "~/.ssh/id_rsa", "~root/x", "~+/a", "/etc/passwd", "../x", "./a", "a//b", "*.ts", "src/*", "?", "-rf", "--", "-", "'a b'",
  "\"c d\"", "'~/.aws'", "\"*\"", "a'b'c", "FOO=1", "LD_PRELOAD=/x.so", "PATH=/tmp", "A=\"x y\"", "B='*'", "if", "then", "export",
  "declare", "local", "cd", "source", ".", "exec", "eval", "Rm", "/usr/bin/rm", "./rm", "of=/dev/sda", "%", "@", "^x", ",", ":", "a:b",
]
const operators = [" && ", " || ", "; ", ";", "&&", " ", " "]

function commands(count: number, pick: (n: number) => number): string[] {
  const word = () => (pick(3) === 0 ? edges[pick(edges.length)]! : vocabulary[pick(vocabulary.length)]!)
  const out: string[] = []
  for (let i = 0; i < count; i++) {
    const segments: string[] = []
    for (let k = 1 + pick(3); k > 0; k--) {
      const words = [pick(5) === 0 ? edges[pick(edges.length)]! : programs[pick(programs.length)]!]
      for (let j = pick(6); j > 0; j--) words.push(word())
      segments.push(words.join(pick(8) === 0 ? (pick(2) ? "  " : "\t") : " "))
    }
    let cmd = segments[0]!
    for (let k = 1; k < segments.length; k++) cmd += operators[pick(operators.length)]! + segments[k]!
    out.push(pick(6) === 0 ? ` ${cmd}  ` : cmd)
  }
  return out
}

const CHARACTERS = ["a", "b", "-", " ", " ", "\t", "'", "\"", "$", "`", "\\", "*", "?", "~", "=", "\u00e9", "\n", "\r", "\u00a0", ";", "&", "|", "/", ".", "ls ", "rm ", "X=", "if ", "{", "#", "(", "!"]

function strings(count: number, pick: (n: number) => number): string[] {
  const out: string[] = []
  for (let i = 0; i < count; i++) {
    let s = ""
    for (let k = 1 + pick(14); k > 0; k--) s += CHARACTERS[pick(CHARACTERS.length)]!
    out.push(s)
  }
  return out
}

// Where the two may differ, the walk reads the command unlike bash and the fast path like it:
// - tree-sitter-bash reports a syntax error on some words bash takes as plain ones (`ls =~`, `ls ==`,
//   `X=1 https://host/x` as a command name): the walk then fails closed on its best guess; such commands
//   are left out of the comparison (the fuzz finds them; hand-written corpora keep them out)
// - it takes a word with other characters than a name's before its `=` (`?X=`, `--opt=v`, `@=x cmd`)
//   for an assignment, though bash only assigns to names: the fast path runs it as the command it is,
//   so it must never be the weaker reading there, or (when the walk, having dropped that word, fails
//   closed on a next word it cannot read as a program) at least medium: a program name bash looks up
//   that ccode does not know
const NOT_A_NAME = /(^|[\s;&|])[^\s=;&|'"]*[^\sA-Za-z0-9_=;&|'"+][^\s=;&|'"]*=/
// - it drops a command named `-` that assignments follow (`- x=1 ls` runs `-`, the walk sees `ls`), also
//   after assignments of its own (`x='a b' - PATH=/tmp y`)
const DASH_COMMAND = /(^|[;&|])\s*([A-Za-z_][A-Za-z0-9_]*=('[^']*'|"[^"]*"|[^\s'"])*\s+)*-\s/

function disagreements(cmds: string[], ctx: typeof CORPUS_CONTEXT): { taken: number; differ: string[] } {
  let taken = 0
  const differ: string[] = []
  for (const cmd of cmds) {
    if (!isPlainCommand(cmd) && splitSimpleList(cmd) === undefined) continue
    const slow = analyzeShellSync(cmd, ctx, { fastPath: false })
    if (slow.parseError) continue
    taken++
    const fast = analyzeShellSync(cmd, ctx)
    const [f, s] = [JSON.stringify(fast), JSON.stringify(slow)]
    const floor = Math.min(riskRank(slow.risk), riskRank("medium"))
    if (f === s || ((NOT_A_NAME.test(cmd) || DASH_COMMAND.test(cmd)) && riskRank(fast.risk) >= floor)) continue
    differ.push(`${JSON.stringify(cmd)}\n  fast: ${f}\n  slow: ${s}`)
  }
  return { taken, differ }
}

// (the share of generated commands plain enough to compare falls as the corpora gain non-plain attack words)
describe("the fast paths agree with tree-sitter on generated commands", () => {
  test("commands of corpus words, edge words and operators", () => {
    const { taken, differ } = disagreements(commands(6000, random(1)), CORPUS_CONTEXT)
    // how many take a fast path moves with the corpora's vocabulary (the attack corpora add words that are
    // not plain commands); the two ways must agree on every command taken
    expect(taken).toBeGreaterThan(1050)
    expect(differ).toEqual([])
  })

  test("the same in the attack context (its own home and environment)", () => {
    const { taken, differ } = disagreements(commands(3000, random(2)), ATTACK_CONTEXT)
    expect(taken).toBeGreaterThan(500)
    expect(differ).toEqual([])
  })

  test("random strings of the characters that decide what is plain", () => {
    const { taken, differ } = disagreements(strings(20000, random(3)), CORPUS_CONTEXT)
    expect(taken).toBeGreaterThan(500)
    expect(differ).toEqual([])
  })
})
