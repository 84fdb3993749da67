// Environment variables whose names say they hold a secret (GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY), named
// directly: `echo $ANTHROPIC_API_KEY`, `printenv GITHUB_TOKEN`, `declare -p X` print the value as `env`
// would. One the script set itself is its own value. Pure.
import type { Finding } from "./raw.ts"
import type { Part } from "./part.ts"
import type { SNode } from "./parser.ts"
import { evalWord, groupWords, type Lookup, type Word } from "./word.ts"
import { looksSecretVariable } from "../base/secretname.ts"
import { known } from "./known.ts"
import { readOptions } from "./getopt.ts"

export function secretVariableFinding(name: string): Finding {
  return { name: "secret-variable", level: "medium", reason: `uses the secret variable $${name}: its value reaches the command's arguments or output` }
}

// declarations reached as a command (`builtin declare -p X`, `command typeset -p X`); tree-sitter reads
// the plain ones as declarations (declarePrints)
const DECLARES = new Set(["declare", "typeset", "local", "export", "readonly"])

// what every other program gets: shared, never added to
const NO_FINDINGS: Finding[] = []

/** `printenv NAME`, `builtin declare -p NAME`: the secret variables it prints (by name, or by the value
 *  `env` gives them) that the script did not set (export or NAME=v before it), and a name known only at
 *  run time (`printenv ${!GITHUB@}`, `printenv $x`, a glob `GITHUB_TOKE?` that a file's name turns into
 *  one), which may be one. */
export function printedSecrets(part: Part, env?: Record<string, string | undefined>): Finding[] {
  let names: Word[]
  let verb = "prints"
  if (part.program === "printenv") names = readOptions(part.words.slice(1), known("printenv")!.options).operands
  // (a word known only at run time may be -p: `builtin declare $o GITHUB_TOKEN`)
  else if (DECLARES.has(part.program) && (flagged(part.words, "p") || part.words.slice(1).some(unknownName))) {
    names = part.words.slice(1).filter((w) => !w.value?.startsWith("-") && !w.text.includes("="))
  }
  // a nameref (`builtin declare -n r=GITHUB_TOKEN`) reads the variable it names from then on
  else if (DECLARES.has(part.program) && flagged(part.words, "n")) {
    verb = "makes a nameref to"
    names = part.words.slice(1).filter((w) => !w.value?.startsWith("-") && w.text.includes("=")).map((w) => ({ ...w, value: w.value?.slice(w.value.indexOf("=") + 1) }))
  } else return NO_FINDINGS
  const out: Finding[] = []
  for (const o of names) {
    const name = o.value === undefined || o.hollow || o.glob ? undefined : /^([A-Za-z_][A-Za-z0-9_]*)(?:\[.*\])?$/s.exec(o.value)?.[1] ?? o.value
    if (name === undefined) {
      out.push({ name: "secret-variable", level: "medium", reason: `${part.program} ${verb} a variable named only at run time (${o.text}): it could be a secret` })
      continue
    }
    if (!looksSecretVariable(name, env) || part.exported?.has(name) || part.assignments.some((a) => a.name === name)) continue
    out.push(secretVariableFinding(name))
  }
  return out
}

function unknownName(w: Word): boolean {
  return (w.value === undefined || w.hollow) && !w.text.includes("=")
}

function flagged(words: Word[], flag: string): boolean {
  return words.some((w) => w.value !== undefined && /^-[a-zA-Z]+$/.test(w.value) && w.value.includes(flag))
}

/** `declare -p NAME` (typeset, local, readonly, export): each name, however it is spelt (`GITHUB_"TOKEN"`,
 *  `${x}_TOKEN`), is looked up as an expansion would be, so one the script did not set is recorded as a
 *  secret read. (A name not known statically is judged where the names are: walk-arith.ts.) */
export function declarePrints(src: string, node: SNode, lookup: Lookup): { globbed: boolean } {
  // no -p flag, however it is spelt, without a `p` or an expansion in the text
  if (!/[p$`]/.test(src.slice(node.start, node.end))) return { globbed: false }
  const groups = groupWords(src, node.children.filter((c) => c.named && c.type !== "variable_assignment"))
  if (!groups.length) return { globbed: false }
  const words = groups.flatMap((g) => evalWord(g, src, lookup))
  // a word known only at run time may be -p (`declare $o GITHUB_TOKEN`)
  if (!flagged(words, "p") && !words.some(unknownName)) return { globbed: false }
  for (const w of words) {
    const name = w.value === undefined ? undefined : /^([A-Za-z_][A-Za-z0-9_]*)(?:\[.*\])?$/s.exec(w.value)?.[1]
    if (name) lookup(name)
  }
  // a name that is a glob (`GITHUB_TOKE?`) is what files match at run time: judged as a command
  // (printedSecrets)
  return { globbed: words.some((w) => w.glob) }
}
