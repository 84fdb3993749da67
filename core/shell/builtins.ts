// Bash builtins that take variable names (test -v, printf -v, read, mapfile, getopts, wait -p, and
// declare/unset reached through `builtin`): bash evaluates a subscript in such a name as arithmetic,
// which runs the commands it holds. A name we cannot prove plain makes the command unresolvable. Pure.
import type { Finding } from "./raw.ts"
import type { View } from "./table.ts"
import { literalWord, type Word } from "./word.ts"
import { lazyOptions, readOptions } from "./getopt.ts"
import { nameRisk } from "./arith.ts"
import { removesLoader } from "./unsetpath.ts"

const READ = lazyOptions({ short: "ersa:d:i:n:N:p:t:u:" })
const MAPFILE = lazyOptions({ short: "d:n:O:s:tu:C:c:" })
const WAIT = lazyOptions({ short: "fnp:" })
const DECLARE = lazyOptions({ short: "aAfFgiIlnrtuxp" })
const COMPGEN = lazyOptions({ short: "abcdefgjksuvo:A:G:W:F:C:P:S:X:V:" })

type NameTaker = (v: Pick<View, "args" | "values">) => (Word | undefined)[]

const NAMES: Record<string, NameTaker> = {
  test: (v) => v.args.filter((_, i) => v.values[i - 1] === "-v"),
  printf: (v) => {
    const at = v.values.findIndex((a) => a.startsWith("-v"))
    if (at < 0 || v.values.slice(0, at).some((a) => !a.startsWith("-"))) return []
    return v.values[at] === "-v" ? [v.args[at + 1]] : [{ ...v.args[at]!, value: v.values[at]!.slice(2) }]
  },
  // with no name read assigns REPLY, mapfile MAPFILE; getopts assigns OPTARG too (declared -i, each
  // evaluates what it is given as arithmetic)
  read: (v) => {
    const r = readOptions(v.args, READ())
    const arrays = r.valued.filter((o) => o.name === "a").map((o) => o.value)
    return r.operands.length || arrays.length ? [...r.operands, ...arrays] : [literalWord("REPLY")]
  },
  mapfile: (v) => {
    const name = readOptions(v.args, MAPFILE()).operands.slice(0, 1)
    return name.length ? name : [literalWord("MAPFILE")]
  },
  getopts: (v) => [...v.args.slice(1, 2), literalWord("OPTARG")],
  // bash 5.3: compgen -V NAME stores the completions in the array NAME
  compgen: (v) => readOptions(v.args, COMPGEN()).valued.filter((o) => o.name === "V").map((o) => o.value),
  wait: (v) => readOptions(v.args, WAIT()).valued.filter((o) => o.name === "p").map((o) => o.value),
  unset: (v) => v.args.filter((a) => !(a.value ?? "").startsWith("-")),
  declare: (v) => readOptions(v.args, DECLARE()).operands.map((a) => (a.value === undefined ? a : { ...a, value: a.value.split("=")[0] })),
}
NAMES["["] = NAMES.test!
NAMES.readarray = NAMES.mapfile!
NAMES.typeset = NAMES.local = NAMES.export = NAMES.readonly = NAMES.declare!

export const NAME_PROGRAMS = Object.keys(NAMES)

// the builtins that assign the variables they name (declare and its kin are read by the walk itself)
const SETTERS = new Set(["printf", "read", "mapfile", "readarray", "getopts", "wait", "compgen"])

/** The variables a builtin call assigns (`read X`, `printf -v X`, `mapfile X`): the name words. */
export function assignedNames(program: string, args: Word[]): (Word | undefined)[] {
  if (!SETTERS.has(program)) return []
  return NAMES[program]!({ args, values: args.map((a) => a.value ?? a.text) })
}

const DECLARERS = new Set(["declare", "typeset", "local", "readonly", "export"])

/** Mark the part unresolvable when a variable name it takes is not plain. */
export function variableNames(v: View, out: Finding[]): void {
  const take = NAMES[v.program]
  if (!take) return
  // `builtin unset PATH`, `\unset PATH`, `command local PATH` (the walk reads the plain keyword forms)
  const removed = removesLoader(v.program, v.args, v.part.context.includes("function"))
  if (removed) out.push(removed)
  if (DECLARERS.has(v.program)) {
    const why = declaredValues(v)
    if (why) {
      v.part.unresolved ??= why
      return
    }
  }
  for (const w of take(v)) {
    const why = nameRisk(w, v.program)
    if (why) {
      v.part.unresolved ??= why
      return
    }
  }
}

/** `declare -a 'b=(..)'` parses the quoted text again as an array assignment; `declare -i 'z=..'`
 *  evaluates the value as arithmetic: either one on text not known inert can run commands. */
function declaredValues(v: View): string | undefined {
  const flags = v.values.filter((x) => /^-[a-zA-Z]+$/.test(x)).join("")
  for (const w of readOptions(v.args, DECLARE()).operands) {
    const eq = w.value?.indexOf("=") ?? -1
    if (w.value === undefined || eq < 0) continue
    const value = w.value.slice(eq + 1)
    if (/[aA]/.test(flags) && value.startsWith("(") && /[$`[]/.test(value)) return `${v.program} ${w.text}: bash parses the parenthesised text again as an array assignment, which can run commands`
    if (/i/.test(flags) && !/^\s*[-+]?\d+\s*$/.test(value) && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) return `${v.program} ${w.text}: the integer variable evaluates its value as arithmetic, which can run commands`
  }
  return undefined
}
