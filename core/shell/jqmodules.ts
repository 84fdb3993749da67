// jq programs that read what the command line does not name: `import "x" as $c` and `include "x"`
// load modules and JSON data from a search path (-L DIR, or a `{search: "/"}` in the directive), so
// `jq -n -L / 'import "home/me/.docker/config" as $c; $c'` prints a credential file; `env` and `$ENV`
// are the whole environment, API keys included. Pure.
import type { Finding } from "./raw.ts"
import type { View } from "./table.ts"
import { readOptions } from "./getopt.ts"
import { known } from "./known.ts"

// a directive, not the field `.include`, the variable `$import` or the string "import"
const DIRECTIVE = /(^|[^.$\w])(import|include)(?!\w)/
const WORD_STRING = /"(import|include)"/g

export function jqModules(v: View, out: Finding[]): void {
  const r = readOptions(v.args, known("jq")!.options)
  const lib = r.valued.find((o) => o.name === "L" || o.name === "library-path")
  const file = r.valued.find((o) => o.name === "f" || o.name === "from-file")
  const program = file ? undefined : r.operands[0]
  let why: string | undefined
  if (lib) why = `jq ${lib.written} ${lib.value?.text ?? ""} lets the program import modules and JSON files from there`
  else if (file) why = `jq ${file.written} ${file.value?.text ?? ""}: a program not shown here can import modules and JSON files`
  else if (program && (program.value === undefined || program.placeholder)) why = `jq runs ${program.text}, a program known only at run time: it can import modules and JSON files`
  else if (program?.value !== undefined && DIRECTIVE.test(program.value.replace(WORD_STRING, ""))) why = "jq import/include in the program reads modules and JSON files chosen at run time"
  if (why) out.push({ name: "read-unknown", level: "medium", reason: why })
  if (program?.value !== undefined && !program.placeholder && jqReadsEnvironment(program.value)) {
    out.push({ name: "print-environment", level: "medium", reason: "the jq program reads env or $ENV as a whole: prints the environment, which may hold secrets" })
  }
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
