// bash against the analysis on small texts: bash runs each text with its programs defined as functions
// that log their arguments; the analysis must either refuse the text (unresolvable) or list the same
// programs with the same arguments. Texts from a fixed-seed generator over the fragments where the
// parser has misread bash (escapes at line starts, backquotes, line continuations, braces, comments),
// plus the shapes found that way. Real bash processes; skipped where bash is missing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { analyzeShellSync, loadParser } from "../../core/shell/index.ts"
import { removeTree } from "../tmp.ts"

const PROGRAMS = ["p", "q", "a", "d"]
const CONTEXT = { cwd: "/home/dev/project", workspace: "/home/dev/project", home: "/home/dev", env: { HOME: "/home/dev", PATH: "/usr/bin:/bin" } }
const FRAGMENTS = [
  "p", "q", " ", " ", "\n", "\\\n", "\\a", "\\p", "\\q", "a", "'b c'", "\"d\"", "#", ";", "{a,b}", "{c..c}", "{a..e..2}", "x=1", "$x",
  "\\`", "\\$", "&&", "\\ ", "\\\\", "``", "`p a`", "$(p b)", "$'e'", "\t", "<<E\nE\n", "\\#", "(q)",
]
const FOUND = [
  "echo x\n\\p a", "p x\n\\q a", "p x # c\n\\q a", "p x\n\\\nq a", "p \"x\"\n\\q", "p `` q", "p a ``\nq b", "p `p \\`q a\\``",
  "p `p \\$x`", "p {c..c} {a..e..2} {01..3}", "set +B; p {a,b}", "set +B; set -B; p {a,b}", "p {{1..2}",
  // a line of assignments alone ends at the line end (the parser reads on; the analysis reads a `;` there)
  "x=1 y=2\np a", "x=1 y=2 # c\nq a", "x=1 y=2\n\\\nq a", "x=1 y=2 \\\n\np a", "x=1 y=2\nx=3 y=4\n\n# c\np a b",
  "p a; x=1 y=$(q b)\np c", "if p; then x=1 y=2\nq a; fi", "x=1 y=a\\\\\np b", "x=1 y=2\nx=`q` y=$(p)\nq",
]

let dir: string
const hasBash = Bun.spawnSync(["bash", "-c", "exit 0"]).exitCode === 0

beforeAll(async () => {
  await loadParser()
  dir = mkdtempSync(join(tmpdir(), "ccode-bashdiff-"))
})
afterAll(() => removeTree(dir))

// a fixed seed: a failure names a text that fails again on the next run
function texts(count: number, seed: number): string[] {
  const out: string[] = []
  for (let i = 0; i < count; i++) {
    let t = "p"
    const k = 2 + next(7)
    for (let j = 0; j < k; j++) t += FRAGMENTS[next(FRAGMENTS.length)]
    out.push(t)
  }
  return out
  function next(n: number): number {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed % n
  }
}

/** What bash runs: one line per program call, `name|arg|arg`; undefined when bash refuses the text. */
function bashRuns(text: string): string[] | undefined {
  const log = PROGRAMS.map((p) => `${p}() { printf '%s' ${p} >&3; printf '|%s' "$@" >&3; printf '\\n' >&3; }`).join("\n")
  const script = join(dir, "s.sh")
  const out = join(dir, "out")
  writeFileSync(script, `${log}\n${text}\n`)
  writeFileSync(out, "")
  const r = Bun.spawnSync(["bash", "-c", `bash -n "$1" 2>/dev/null || exit 7; HOME=/home/dev bash "$1" 3>"$2" >/dev/null 2>&1; exit 0`, "-", script, out], { cwd: dir })
  if (r.exitCode === 7) return undefined
  // printf prints its format once with no arguments: `p|` is p called with none
  return readFileSync(out, "utf8").split("\n").filter(Boolean).map((l) => l.replace(/^([a-z])\|$/, "$1"))
}

function analysisRuns(text: string): string[] | undefined {
  const a = analyzeShellSync(text, CONTEXT)
  if (a.unresolvable || a.parseError) return undefined
  return a.commands.filter((c) => PROGRAMS.includes(c.program)).map((c) => [c.program, ...c.args].join("|"))
}

describe.skipIf(!hasBash)("bash and the analysis run the same programs", () => {
  test.each(FOUND)("a shape found by the differential run, programs and arguments: %j", (text) => {
    const ours = analysisRuns(text)
    if (ours === undefined) return
    expect({ text, runs: ours.sort() }).toEqual({ text, runs: (bashRuns(text) ?? []).sort() })
  })

  test("on 400 generated texts the analysis refuses or agrees on the programs run", () => {
    const differ: string[] = []
    let compared = 0
    for (const text of texts(400, 7)) {
      const bash = bashRuns(text)
      if (bash === undefined) continue
      const ours = analysisRuns(text)
      if (ours === undefined) continue
      compared++
      // a background job may not have logged before bash exits
      if (text.includes("&") && !text.includes("&&")) continue
      const names = (l: string[]) => l.map((x) => x.split("|")[0]).sort().join(",")
      if (names(bash) !== names(ours)) differ.push(`${JSON.stringify(text)}: bash ${JSON.stringify(bash)} analysis ${JSON.stringify(ours)}`)
    }
    expect(compared).toBeGreaterThan(250)
    expect(differ).toEqual([])
  }, 60_000)

  test("on 200 generated texts after a line of assignments the analysis refuses or agrees", () => {
    const differ: string[] = []
    let compared = 0
    for (const generated of texts(200, 11)) {
      const text = `x=1 y=2${generated.slice(1)}`
      const bash = bashRuns(text)
      if (bash === undefined) continue
      const ours = analysisRuns(text)
      if (ours === undefined || (text.includes("&") && !text.includes("&&"))) continue
      compared++
      const names = (l: string[]) => l.map((x) => x.split("|")[0]).sort().join(",")
      if (names(bash) !== names(ours)) differ.push(`${JSON.stringify(text)}: bash ${JSON.stringify(bash)} analysis ${JSON.stringify(ours)}`)
    }
    expect(compared).toBeGreaterThan(100)
    expect(differ).toEqual([])
  }, 60_000)
})
