// jq (and yq) programs that read what the command line does not name: `import "x" as $c` and `include "x"`
// load modules and JSON data from a search path (-L DIR, or a `{search: "/"}` in the directive), so
// `jq -n -L / 'import "home/me/.docker/config" as $c; $c'` prints a credential file; `env` and `$ENV`
// are the whole environment, API keys included, and `env.GITHUB_TOKEN` (yq: `strenv(NAME)`) one secret. Pure.
import type { Finding } from "./raw.ts"
import type { View } from "./table.ts"
import type { Word } from "./word.ts"
import { readOptions } from "./getopt.ts"
import { known } from "./known.ts"
import { looksSecretVariable } from "../base/secretname.ts"

// a directive, not the field `.include`, the variable `$import` or the string "import"
const DIRECTIVE = /(^|[^.$\w])(import|include)(?!\w)/
const WORD_STRING = /"(import|include)"/g

// jq's options that take two words: `--arg NAME VALUE`, `--argjson NAME JSON`, `--slurpfile NAME FILE`,
// `--rawfile NAME FILE` (jq matches long options exactly; `--` ends its options)
const TWO_WORDS = new Set(["--arg", "--argjson", "--slurpfile", "--rawfile"])

/** jq's arguments with the NAME word of each two-word option left out, so that an option reader that
 *  gives these options one value reads VALUE/FILE as theirs and finds the program where jq does. */
export function jqWords<W extends { value?: string }>(words: readonly W[]): W[] {
  const out: W[] = []
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!
    out.push(w)
    if (w.value === "--") return [...out, ...words.slice(i + 1)]
    if (w.value !== undefined && TWO_WORDS.has(w.value)) i++
  }
  return out
}

/** The files jq reads as input (its arguments after the program name): the operands after the program,
 *  all of them with -f (the program is a file too), none after `--args`/`--jsonargs` (those are data). */
export function jqInputs(args: readonly Word[]): Word[] {
  const r = readOptions(jqWords(args), known("jq")!.options)
  const fromFile = r.valued.some((o) => o.name === "f" || o.name === "from-file")
  const inputs = fromFile ? r.operands : r.operands.slice(1)
  const data = args.findIndex((w) => w.value === "--args" || w.value === "--jsonargs")
  const end = args.findIndex((w) => w.value === "--")
  if (data < 0 || (end >= 0 && end < data)) return inputs
  return inputs.filter((w) => args.indexOf(w) < data)
}

export function jqModules(v: View, out: Finding[]): void {
  const yq = v.program === "yq"
  const r = readOptions(yq ? v.args : jqWords(v.args), known(v.program)!.options)
  const lib = r.valued.find((o) => o.name === "L" || o.name === "library-path")
  const file = r.valued.find((o) => o.name === "f" || o.name === "from-file")
  const expression = r.valued.find((o) => o.name === "expression")?.value
  // yq (mikefarah) takes an optional `eval`/`e`/`eval-all`/`ea` command before its expression
  const operands = yq && /^(eval|e|eval-all|ea)$/.test(r.operands[0]?.value ?? "") ? r.operands.slice(1) : r.operands
  const program = file ? undefined : (expression ?? operands[0])
  const p = v.program
  let why: string | undefined
  if (lib) why = `${p} ${lib.written} ${lib.value?.text ?? ""} lets the program import modules and JSON files from there`
  else if (file) why = `${p} ${file.written} ${file.value?.text ?? ""}: a program not shown here can import modules and JSON files`
  else if (program && (program.value === undefined || program.placeholder)) why = `${p} runs ${program.text}, a program known only at run time: it can import modules and JSON files`
  // `--arg=a b`: jq's own parser takes no `=` (it refuses the word); a jq that did would shift the program
  const glued = yq ? undefined : v.args.find((w) => w.value !== undefined && TWO_WORDS.has(w.value.split("=")[0]!) && w.value.includes("="))
  if (glued && !why) why = `jq ${glued.text}: jq reads this option with two words after it, never with =, so which word is the program is not known`
  if (why) out.push({ name: "read-unknown", level: "medium", reason: why })
  // which operand yq takes for its program depends on which yq is installed: the others are checked
  // too when they read as a program rather than a file name (a quote, `$`, `(`, `;`, a blank)
  const others = yq ? operands.filter((w) => w !== program && /["$(;\s|]/.test(w.value ?? "")) : []
  for (const w of program ? [program, ...others] : others) if (w.value !== undefined && !w.placeholder) programChecks(p, w.value, out, v.place.env)
}

// jq's lexer reads `$` and the name as two tokens: blanks, newlines and `# comments` may stand between them
// (`$ ENV`, `$#c⏎ENV`); the checks below read the program with that gap closed
const DOLLAR_GAP = /\$(?:\s|#[^\n]*(?:\n|$))+/g

function programChecks(p: string, program: string, out: Finding[], env: Record<string, string | undefined> | undefined): void {
  const text = program.includes("$") ? program.replace(DOLLAR_GAP, "$") : program
  if (DIRECTIVE.test(text.replace(WORD_STRING, ""))) out.push({ name: "read-unknown", level: "medium", reason: `${p} import/include in the program reads modules and JSON files chosen at run time` })
  if (p === "yq" && /(?<![\w.$])envsubst(?!\w)/.test(text)) out.push({ name: "print-environment", level: "medium", reason: "the yq program uses envsubst: it expands any ${NAME} in its strings from the environment, secrets included" })
  if (jqReadsEnvironment(text)) out.push({ name: "print-environment", level: "medium", reason: `the ${p} program reads env or $ENV as a whole: prints the environment, which may hold secrets` })
  for (const name of jqSecretNames(text, env)) out.push({ name: "secret-variable", level: "medium", reason: `the ${p} program reads the secret variable ${name}: its value reaches the output` })
}

// `env.NAME`, `$ENV.NAME`, `env["NAME"]`, yq's `env(NAME)` and `strenv(NAME)`
const NAMED_READS = /(?<![\w.$])(?:env|\$ENV)\s*(?:\.\s*([A-Za-z_][A-Za-z0-9_]*)|\[\s*"([A-Za-z_][A-Za-z0-9_]*)"\s*\])|(?<![\w.$])(?:str)?env\s*\(\s*"?([A-Za-z_][A-Za-z0-9_]*)"?\s*\)/g

/** The secret variables (looksSecretVariable: by name, or by the value `env` gives them) a jq or yq
 *  program reads by name. */
export function jqSecretNames(program: string, env?: Record<string, string | undefined>): string[] {
  const out: string[] = []
  for (const m of program.matchAll(NAMED_READS)) {
    const name = m[1] ?? m[2] ?? m[3]
    if (name && looksSecretVariable(name, env) && !out.includes(name)) out.push(name)
  }
  return out
}

// `env` (the builtin, not `.env`, `$env` or `"env"` as a key) and `$ENV`, anywhere (inside a string's
// \(..) too); `env.NAME` and `$ENV.NAME` read the one variable the program names
const ENV_WORD = /(?<![\w.$])env(?!\w)|\$ENV(?!\w)/g
const ENV_NAMED = /^(\.[A-Za-z_][A-Za-z0-9_]*)(?![\w.\[?"])/
const QUOTED = /(?<!\\)"env"/

/** Whether a jq program reads the environment other than as `env.NAME` / `$ENV.NAME`. */
export function jqReadsEnvironment(program: string): boolean {
  for (const m of program.matchAll(ENV_WORD)) {
    const at = m.index!
    if (m[0] === "env" && QUOTED.test(program.slice(at - 1, at + 4))) continue
    if (ENV_NAMED.test(program.slice(at + m[0].length))) continue
    return true
  }
  return false
}
