// Variables a statement sets however bash is told to set them: `export`/`declare`/`typeset`/`local`/
// `readonly` reached through `builtin`, `command` or `time`, with a quoted NAME=VALUE word; `read`,
// `mapfile`, `printf -v`, `getopts`; through a nameref; under `set -a`. A loader variable (PATH, GIT_*,
// IFS, ...) set any of these ways is recorded like a plain assignment. Pure: changes only the scope.
import type { Word } from "./word.ts"
import { isLoaderVar, type Scope } from "./scope.ts"
import { assignedNames } from "./builtins.ts"

const DECLARERS = new Set(["export", "declare", "typeset", "local", "readonly"])
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
const NOT_FOLLOWED = new Set(["PWD", "OLDPWD", "TMPDIR", "EXECIGNORE", "DIRSTACK", "REPLY", "OPTARG", "MAPFILE", "BASH_REMATCH"])

/** The command a simple command runs in this shell, past the `time` keyword, `builtin` and `command`;
 *  undefined when `command -v`/`-V` only looks it up. */
export function builtinCall(words: Word[]): { name: string | undefined; args: Word[] } {
  let i = 0
  if (words[0]?.value === "time") {
    i++
    while (words[i]?.value === "-p" || words[i]?.value === "--") i++
  }
  for (;;) {
    const v = words[i]?.value
    if (v === "builtin") i++
    else if (v === "command") {
      i++
      while (words[i]?.value?.startsWith("-") && words[i]!.value !== "-") {
        if (words[i]!.value === "--") {
          i++
          break
        }
        if (/[vV]/.test(words[i]!.value!)) return { name: undefined, args: [] }
        i++
      }
    } else break
  }
  return { name: words[i]?.value, args: words.slice(i + 1) }
}

/** What a builtin call sets in the scope; the reason when a name it sets cannot be known. */
export function setByBuiltin(name: string | undefined, args: Word[], scope: Scope): string | undefined {
  if (name === undefined) return undefined
  if (DECLARERS.has(name)) return declare(name, args, scope)
  if (name === "set") setFlags(args, scope)
  if (name === "shopt") shoptBraces(args, scope)
  let why: string | undefined
  for (const w of assignedNames(name, args)) {
    const target = w?.value?.replace(/\[.*$/, "")
    if (target !== undefined && isInteger(scope, target)) why ??= integerRisk(name, target)
    if (target !== undefined) editsStack(scope, resolve(scope, target) ?? target)
    if (w?.value !== undefined && PLAIN_NAME.test(w.value)) why ??= setVar(scope, w.value, undefined, false)
  }
  return why
}

/** A variable declared -i (`declare -i`, `-ai`, `local -i`): what it is assigned is evaluated as arithmetic. */
// bash evaluates what is assigned to these as arithmetic from the start (`OPTIND='b[$(cmd)]'` runs cmd)
const BUILTIN_INTEGERS = new Set(["RANDOM", "SRANDOM", "OPTIND", "HISTCMD"])
/** An assignment to one of them somewhere in a text: the fast paths leave such a text to the full walk. */
export const BUILTIN_INTEGER_ASSIGNMENT = /\b(RANDOM|SRANDOM|OPTIND|HISTCMD)(\[[^\]]*\])?\+?=/

export function isInteger(scope: Scope, name: string): boolean {
  // an element of an integer array is integer too (`declare -i y; y[0]=...`), and a nameref stands for
  // the variable it names (`declare -n r=y; r=...`)
  const base = name.replace(/\[.*$/s, "")
  const target = resolve(scope, base)
  return integerHere(scope, base) || (target !== undefined && target !== base && integerHere(scope, target))
}

function integerHere(scope: Scope, name: string): boolean {
  if (BUILTIN_INTEGERS.has(name)) return true
  for (let s: Scope | undefined = scope; s; s = s.parent) if (s.integers?.has(name)) return true
  return false
}

/** `declare -i NAME` (`local -i`, `typeset -ai`): through a nameref the attribute goes to the variable it names. */
export function markInteger(scope: Scope, name: string): void {
  const base = name.replace(/\[.*$/s, "")
  ;(scope.integers ??= new Set()).add(resolve(scope, base) ?? base)
}

/** Why a value given an integer variable at run time (read, printf -v, mapfile, a for loop) is not inert. */
export function integerRisk(how: string, name: string): string {
  return `${how} assigns the integer variable ${name} a value not known: bash evaluates it as arithmetic, which can run commands`
}

/** `export NAME=VALUE NAME2`, `declare -x ...` as words (their values after quote removal); direct: the
 *  declaration itself, not reached through builtin or command. */
export function declare(keyword: string, args: Word[], scope: Scope, direct = false): string | undefined {
  let flags = keyword === "export" ? "x" : ""
  let why: string | undefined
  let options = true
  for (const a of args) {
    const v = a.value
    if (v === undefined) continue // its name is not static: the part is unresolvable (builtins.ts)
    if (options && v === "--") {
      options = false
      continue
    }
    if (options && /^[-+]/.test(v)) {
      if (v.startsWith("-")) flags += v.slice(1)
      continue
    }
    options = false
    const eq = v.indexOf("=")
    const target = (eq < 0 ? v : v.slice(0, eq)).replace(/\+$/, "").replace(/\[.*$/, "")
    if (!PLAIN_NAME.test(target)) continue
    if (/i/.test(flags) && keyword !== "export" && keyword !== "readonly") markInteger(scope, target)
    if (/[aA]/.test(flags)) markArray(scope, target, flags.includes("A"))
    // `export -n` takes the export away; only declare, typeset and local make a nameref
    if (flags.includes("n") && keyword !== "export" && keyword !== "readonly") {
      // bash assigns `_` itself after every command (the last argument), through a nameref to the variable
      // it names: an element's subscript (`declare -n _='a[$(cmd)]'`) or an integer's value is evaluated
      if (target === "_") why ??= `${keyword} -n ${clipValue(v)}: bash assigns $_ (the last argument) after every command through the nameref, evaluating a subscript or an integer's value as arithmetic, which can run commands`
      why ??= nameref(scope, target, eq < 0 ? undefined : v.slice(eq + 1))
      continue
    }
    if (eq < 0) {
      if (flags.includes("x")) scope.exported.add(resolve(scope, target) ?? target)
      continue
    }
    const value = v.slice(eq + 1)
    why ??= compoundRisk(keyword, target, value, scope)
    // (through builtin/command the part's own check reads a quoted -i value: builtins.ts)
    if (direct && (flags.includes("i") || isInteger(scope, target))) {
      if (!/^\s*[-+]?\d+\s*$/.test(value) && !PLAIN_NAME.test(value)) why ??= `${keyword} ${clipValue(v)}: the integer variable ${target} evaluates its value as arithmetic, which can run commands`
    }
    why ??= setVar(scope, target, v[eq - 1] === "+" || value.includes("~") ? undefined : value, flags.includes("x"))
  }
  return why
}

/** An assignment to NAME (through a nameref to the variable it names); the reason when the variable it
 *  sets cannot be known. */
export function setVar(scope: Scope, name: string, value: string | undefined, exported: boolean): string | undefined {
  // `PATH[0]=.` sets PATH (a scalar is element 0); any element of an array leaves its value not known here
  const bracket = name.indexOf("[")
  if (bracket > 0) {
    name = name.slice(0, bracket)
    value = undefined
  }
  const refs = refsOf(scope)
  if (refs?.has(name)) {
    const target = resolve(scope, name)
    if (target === undefined) {
      // the first assignment to an empty nameref names the variable it refers to
      if (value === undefined || !PLAIN_NAME.test(value)) return `an assignment names the variable nameref ${name} refers to, which is not static`
      refs.set(name, value)
      if (isLoaderVar(value)) scope.loader.push(value)
      return undefined
    }
    name = target
  }
  scope.vars.set(name, isVolatile(scope, name) ? undefined : value)
  editsStack(scope, name)
  if (exported || allexport(scope)) scope.exported.add(name)
  if (isLoaderVar(name)) scope.loader.push(name)
  return undefined
}

/** bash rewrites the directory stack when DIRSTACK or one of its elements is assigned (`DIRSTACK[1]=/etc;
 *  cd ~1`): what pushd -n made known about it is not known any more. */
function editsStack(scope: Scope, name: string): void {
  if (name === "DIRSTACK") scope.dirs = []
}

export function markArray(scope: Scope, name: string, associative = false): void {
  ;(scope.arrays ??= new Map()).set(name, associative || isAssociative(scope, name))
}

function isArray(scope: Scope, name: string): boolean {
  for (let s: Scope | undefined = scope; s; s = s.parent) if (s.arrays?.has(name)) return true
  return false
}

/** declared -A here (and not unset since): `m[$(cmd)]` takes the output as a key, not as arithmetic. */
export function isAssociative(scope: Scope, name: string): boolean {
  for (let s: Scope | undefined = scope; s; s = s.parent) if (s.arrays?.has(name)) return s.arrays.get(name)!
  return false
}

/** `unset NAME`: a later `NAME[i]=` makes an indexed array again. */
export function unsetArray(scope: Scope, name: string): void {
  if (isArray(scope, name)) (scope.arrays ??= new Map()).set(name, false)
}

/** declare NAME='(..)' on an array (-a, -A, or one already) parses the text as a compound assignment
 *  again: its subscripts and elements are expanded, which runs the command substitutions in them. */
export function compoundRisk(keyword: string, name: string, value: string | undefined, scope: Scope): string | undefined {
  if (!isArray(scope, name)) return undefined
  if (value !== undefined && !(value.startsWith("(") && /[$`[]/.test(value))) return undefined
  return `${keyword} ${name}=${value === undefined ? "a value not known" : clipValue(value)}: bash parses the parenthesised text again as an array assignment, which can run commands`
}

function clipValue(s: string): string {
  return s.length > 40 ? `${s.slice(0, 37)}...` : s
}

function nameref(scope: Scope, name: string, target: string | undefined): string | undefined {
  // `declare -n r` on a variable with a value makes it a nameref to that value (`r=GITHUB_TOKEN;
  // declare -n r; echo $r` prints the token)
  if (target === undefined) {
    let current: string | undefined = ""
    for (let s: Scope | undefined = scope; s; s = s.parent) {
      if (!s.vars.has(name)) continue
      current = s.vars.get(name)
      break
    }
    if (current === undefined || /[$`]/.test(current)) return `declare -n ${name} makes ${name} a nameref to its value, which is not known`
    target = current
  }
  ;(scope.refs ??= new Map()).set(name, target || undefined)
  if (target && isLoaderVar(target)) scope.loader.push(target)
  // a nameref named PATH or HOME: bash's lookups of PATH, `~` read the variable it names from here
  if (isLoaderVar(name)) scope.loader.push(name)
  // the directories and ignore lists bash and mktemp consult (`~-`, `cd -`, TMPDIR, EXECIGNORE) are not followed through one
  if (NOT_FOLLOWED.has(name)) return `declare -n ${name} makes bash read ${name} from another variable, which is not followed`
  return undefined
}

/** The variable a nameref names (following a chain of them); undefined when it names none yet. */
function resolve(scope: Scope, name: string): string | undefined {
  const refs = refsOf(scope)
  let at: string | undefined = name
  for (let i = 0; i < 8 && at !== undefined && refs?.has(at); i++) at = refs.get(at)
  return at
}

function refsOf(scope: Scope): Map<string, string | undefined> | undefined {
  for (let s: Scope | undefined = scope; s; s = s.parent) if (s.refs) return s.refs
  return undefined
}

/** Whether words are brace-expanded at this point of the script. */
export function braceMode(scope: Scope): boolean | "unknown" {
  for (let s: Scope | undefined = scope; s; s = s.parent) if (s.braceexpand !== undefined) return s.braceexpand
  return true
}

function allexport(scope: Scope): boolean {
  for (let s: Scope | undefined = scope; s; s = s.parent) if (s.allexport !== undefined) return s.allexport
  return false
}

function isVolatile(scope: Scope, name: string): boolean {
  for (let s: Scope | undefined = scope; s; s = s.parent) if (s.volatile?.has(name)) return true
  return false
}

/** After a trap handler or a function body set them: their values are not known from here on. */
export function markVolatile(scope: Scope, names: Iterable<string>): void {
  for (const n of names) {
    ;(scope.volatile ??= new Set()).add(n)
    scope.vars.set(n, undefined)
  }
}

export function cwdLost(scope: Scope): boolean {
  for (let s: Scope | undefined = scope; s; s = s.parent) if (s.cwdLost) return true
  return false
}

// `set -a`/`-B`, `set -o allexport`/`braceexpand` and their `+` forms, up to the first operand; a word
// not known statically may turn brace expansion either way
function setFlags(args: Word[], scope: Scope): void {
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value
    if (v === undefined) {
      scope.braceexpand = "unknown"
      return
    }
    if (v === "--" || v === "-" || !/^[-+]/.test(v)) return
    const on = v.startsWith("-")
    // each o in a bundle takes the next word as an option name (`set -eo braceexpand`)
    for (const c of v.slice(1)) {
      if (c === "a") scope.allexport = on
      else if (c === "B") scope.braceexpand = on
      else if (c === "o") {
        const named = args[++i]?.value
        if (named === "allexport") scope.allexport = on
        else if (named === "braceexpand") scope.braceexpand = on
        else if (named === undefined && i < args.length) scope.braceexpand = "unknown"
      }
    }
  }
}

// `shopt -s -o braceexpand` / `shopt -ou braceexpand`: set's options through shopt
function shoptBraces(args: Word[], scope: Scope): void {
  const letters = args.map((a) => a.value).filter((v) => v !== undefined && /^-[a-z]+$/.test(v)).join("")
  const names = args.map((a) => a.value).filter((v) => v === undefined || !v.startsWith("-"))
  if (!letters.includes("o") && !names.includes(undefined) && !args.some((a) => a.value === undefined)) return
  if (letters.includes("q") && !letters.includes("s") && !letters.includes("u")) return
  if (args.some((a) => a.value === undefined)) scope.braceexpand = "unknown"
  else if (names.includes("braceexpand")) scope.braceexpand = letters.includes("u") ? false : letters.includes("s") ? true : scope.braceexpand
}

/** Arithmetic assigns the variables it names (`(( PATH = 0 ))`, `let IFS=1`, `$((X++))`): a loader
 *  variable named in it is taken as set (a number as PATH is a directory relative to the cwd). */
export function arithmeticSets(text: string, scope: Scope): void {
  for (const m of text.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) {
    if (isLoaderVar(m[0])) scope.loader.push(m[0])
    editsStack(scope, resolve(scope, m[0]) ?? m[0])
  }
}
