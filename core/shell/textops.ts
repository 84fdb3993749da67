// What sed scripts and awk programs do outside their text: the commands they run (sed `e CMD`, awk
// `system("CMD")`, `print | "CMD"`, `"CMD" | getline`) and the files they write (`w FILE`, `print >
// "FILE"`) or read (`r FILE`, `getline < "FILE"`). Each is handed to the analysis as the shell command it
// amounts to (`CMD`, `awk | CMD`, `: > FILE`, `cat FILE`), so rules, risk paths and deny rules see it; what cannot be
// named (a command built at run time, the pattern space run by `s///e`) is high. Pure.
import type { Word } from "./word.ts"
import { literalWord } from "./word.ts"
import { readOptions } from "./getopt.ts"
import { AWK, SED } from "./textassess.ts"
import { awkIsPlain, sedIsPlain } from "./textprog.ts"
import type { Expander, Part } from "./part.ts"
import { environment } from "./part.ts"

export interface TextOps {
  runs: string[]
  /** commands that read the program's output (`print | "sh"`) */
  pipes: string[]
  writes: string[]
  reads: string[]
  /** a command known only at run time, and why */
  unknown?: string
}

/** sed and awk parts: the part itself, then what their scripts do as commands of their own. */
export function textRunner(part: Part, ex: Expander): void {
  ex.out.push(part)
  const sed = part.program === "sed"
  for (const text of scriptsOf(part)) {
    // a plain script runs and writes nothing (and its `>` is a comparison)
    if (sed ? sedIsPlain(text) : awkIsPlain(text)) continue
    const ops = sed ? sedOps(text) : awkOps(text)
    if (ops.unknown) part.findings.push({ name: "sed-program", level: "high", reason: ops.unknown })
    // file names are taken literally (sed and awk expand no `~`, glob or brace in them)
    const script = [...ops.runs, ...ops.pipes.map((c) => `${part.program} | ${c}`), ...ops.writes.map((f) => `: > ${literally(f)}`), ...ops.reads.map((f) => `cat -- ${literally(f)}`)]
    for (const s of script) ex.out.push(...ex.nested(literalWord(s), { context: [...part.context, "eval"], cwd: part.cwd, loader: part.loader, exported: environment(part) }))
  }
}

function literally(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`
}

function scriptsOf(part: Part): string[] {
  const sed = part.program === "sed"
  const r = readOptions(part.words.slice(1), sed ? SED() : AWK())
  const given = r.valued.filter((o) => o.name === "e" || o.name === (sed ? "expression" : "source")).map((o) => o.value)
  const fromFile = r.valued.some((o) => o.name === "f" || o.name === "file")
  const scripts: (Word | undefined)[] = given.length || fromFile ? given : [r.operands[0]]
  return scripts.map((w) => w?.value).filter((v): v is string => v !== undefined)
}

/** GNU sed: e/w/W/r/R take the rest of the line; s///e runs the pattern space, s///w FILE writes. */
export function sedOps(script: string): TextOps {
  const ops: TextOps = { runs: [], pipes: [], writes: [], reads: [] }
  // a command letter (after an address and `!`) at the start of a line, after `;` or `{`
  // addresses: numbers, `$`, `first~step`, `+N`, `/regex/I`, `\%regex%`, with `,` and `!` between
  const re = /(?:^|[\n;{}])(?:\s|[\d$~+,!]|\/(?:\\.|[^/\n])*\/[IM]*|\\([^\n])(?:\\.|(?!\1)[^\n])*\1[IM]*)*([ewWrR])(?:(?=[;\n}]|$)|[ \t]([^\n]*))/g
  for (const m of script.matchAll(re)) {
    const arg = (m[3] ?? "").trim()
    if (m[2] === "e") arg ? ops.runs.push(arg) : (ops.unknown = "sed e runs the pattern space as a command")
    else if (m[2] === "w" || m[2] === "W") ops.writes.push(arg)
    else ops.reads.push(arg)
  }
  // s///FLAGS: a flag e runs the result, w FILE writes it
  for (const m of script.matchAll(/(?:^|[\n;{}])\s*[^\n;{}]*?s(.)(?:\\.|(?!\1).)*\1(?:\\.|(?!\1).)*\1([gpiImMe0-9]*)(w[ \t]*([^\n]*))?/g)) {
    if (m[2]!.includes("e")) ops.unknown = "sed s///e runs each line it produces as a command"
    if (m[3]) ops.writes.push(m[4]!.trim())
  }
  return ops
}

/** awk: system(), pipes to and from commands, output redirection and getline from files. */
export function awkOps(program: string): TextOps {
  const ops: TextOps = { runs: [], pipes: [], writes: [], reads: [] }
  const literal = (s: string) => s.replace(/\\(.)/g, "$1")
  for (const m of program.matchAll(/system\s*\(\s*("((?:\\.|[^"\\])*)"\s*\))?/g)) {
    if (m[1]) ops.runs.push(literal(m[2]!))
    else ops.unknown = "the awk program runs a command built at run time (system)"
  }
  // `print ... | "CMD"` (`|` in a regex or `||` is not a pipe)
  for (const m of program.matchAll(/(?<!\|)\|&?\s*"((?:\\.|[^"\\])*)"/g)) ops.pipes.push(literal(m[1]!))
  if (/\bprintf?\b[^;{}\n]*(?<!\|)\|&?(?![|"])\s*(?!getline)[A-Za-z_(]/.test(program)) ops.unknown = "the awk program pipes to a command built at run time"
  for (const m of program.matchAll(/("((?:\\.|[^"\\])*)"|[A-Za-z_][\w]*|\))\s*\|&?\s*getline/g)) {
    if (m[2] !== undefined) ops.runs.push(literal(m[2]))
    else ops.unknown = "the awk program reads from a command built at run time (| getline)"
  }
  for (const m of program.matchAll(/>>?\s*"((?:\\.|[^"\\])*)"/g)) ops.writes.push(literal(m[1]!))
  for (const m of program.matchAll(/getline[^<;}\n]*<\s*"((?:\\.|[^"\\])*)"/g)) ops.reads.push(literal(m[1]!))
  return ops
}
