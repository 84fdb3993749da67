// The arithmetic bash evaluates while a script runs, found in its syntax tree: `(( ))`, `$(( ))`,
// `$[ ]`, `[[ a -eq b ]]`, `[[ -v name ]]`, `${!x}`, `${a[i]}`, `${v:offset}`, names given to
// unset/declare, integer variables. What cannot be proven inert is recorded as unresolved. Pure.
import type { SNode } from "./parser.ts"
import type { Walked } from "./raw.ts"
import { makeLookup, type Scope, type ShellEnv } from "./scope.ts"
import { evalWord, groupWords, literalWord } from "./word.ts"
import { arithmeticNames, arithmeticRisk, nameRisk, type ScriptValue } from "./arith.ts"
import { arithmeticSets, isAssociative, isInteger, setVar } from "./setvars.ts"

/** What these checks need of the walk: the source, the environment, and where to record findings. */
export interface Reader {
  src: string
  shell: ShellEnv
  out: Walked
}

/** Record why something in the script cannot be resolved statically. */
export function note(w: Reader, reason: string | undefined): void {
  if (reason) (w.out.unresolved ??= []).push(reason)
}

export function scriptValue(scope: Scope): ScriptValue {
  return (name) => {
    // bash sets these itself: `_` (the last argument of the command before) and BASH_REMATCH (what
    // `[[ … =~ … ]]` matched): data, not known here
    if (name === "_" || name === "BASH_REMATCH") return undefined
    for (let s: Scope | undefined = scope; s; s = s.parent) if (s.vars.has(name)) return s.vars.get(name)
    return "unset"
  }
}

/** `(( expr ))`, `$(( expr ))`, a C-style for header: the text between the delimiters. */
export function arithmetic(w: Reader, node: SNode, scope: Scope, open: number, close: number): void {
  note(w, evaluated(w, w.src.slice(node.start + open, node.end - close), scope, false))
}

/**
 * Text bash evaluates as arithmetic: why it is not inert (undefined when it is), with what it assigns
 * recorded in the scope and the variables it reads looked up. A secret-named one is a use of its value
 * even without a `$`: `(( AWS_SECRET_ACCESS_KEY ))` evaluates the key as an expression, and bash's error
 * message ("division by 0", "value too great for base") quotes the whole of it.
 */
export function evaluated(w: Reader, text: string, scope: Scope, quotesAllowed = true, unquoted = false): string | undefined {
  const risk = arithmeticRisk(text, scriptValue(scope), quotesAllowed, unquoted)
  // before the assignments it makes: `(( GITHUB_TOKEN += 1 ))` reads the inherited value
  const lookup = makeLookup(scope, w.shell)
  for (const name of arithmeticNames(text)) lookup(name)
  // `${#GITHUB_TOKEN}` reads the variable too (its length), as it does in a command's words
  if (text.includes("${#")) for (const m of text.matchAll(/\$\{#([A-Za-z_][A-Za-z0-9_]*)/g)) lookup(m[1]!)
  arithmeticSets(text, scope)
  return risk
}

const ARITH_TESTS = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"])

/** [[ a -eq b ]] evaluates both sides as arithmetic; [[ -v name ]] evaluates name's subscript. */
export function testCommand(w: Reader, node: SNode, scope: Scope): void {
  for (const c of node.children) {
    if (c.type === "binary_expression" && c.children.some((x) => x.field === "operator" && ARITH_TESTS.has(w.src.slice(x.start, x.end)))) {
      for (const side of c.children.filter((x) => x.field === "left" || x.field === "right")) {
        const text = w.src.slice(side.start, side.end)
        note(w, evaluated(w, side.type === "string" ? text.slice(1, -1) : text, scope))
      }
    } else if (c.type === "unary_expression" && c.children.some((x) => x.type === "test_operator" && w.src.slice(x.start, x.end) === "-v")) {
      names(w, c.children.filter((x) => x.named && x.type !== "test_operator"), scope, "[[ -v ]]")
    }
    if (c.children.length) testCommand(w, c, scope)
  }
}

/** Variable names a builtin takes (unset, declare, [[ -v ]]): a subscript there is arithmetic. */
export function names(w: Reader, nodes: SNode[], scope: Scope, what: string): void {
  const lookup = makeLookup(scope, w.shell)
  for (const group of groupWords(w.src, nodes)) {
    for (const word of evalWord(group, w.src, lookup)) {
      if (word.value !== undefined && /^[-+]/.test(word.value)) continue
      const name = word.value === undefined ? word : { ...word, value: word.value.split("=")[0] }
      note(w, nameRisk(name, what))
    }
  }
}

/**
 * `${!x}` reads the variable x names (a subscript in that name is evaluated); `${a[i]}` evaluates i as
 * arithmetic. Either one on a value the script set that is not plain can run commands.
 */
export function expansionRisk(w: Reader, node: SNode, scope: Scope): void {
  const indirect = node.children.some((c) => c.type === "!" || (c.field === "operator" && w.src.slice(c.start, c.end) === "!"))
  const name = node.children.find((c) => c.type === "variable_name")
  const unknownName = { ...literalWord(""), value: undefined, text: w.src.slice(node.start, node.end) }
  if (indirect && name) {
    const n = w.src.slice(name.start, name.end)
    // a positional parameter (`${!1}`, `${!0}`) holds a name the script does not know
    const value = /^\d+$/.test(n) ? undefined : scriptValue(scope)(n)
    if (value !== "unset") note(w, nameRisk(value === undefined ? unknownName : literalWord(value), "${!...}"))
  } else if (indirect && node.children.some((c) => c.type === "special_variable_name" || (c.field === "operator" && c.type === "#"))) {
    // `${!@}`, `${!*}`, `${!_}`, `${!#}`: the name is a special parameter's value, not known here
    note(w, nameRisk(unknownName, "${!...}"))
  } else if (indirect && node.children.some((c) => c.type === "subscript" && !/\[[@*]\]$/.test(w.src.slice(c.start, c.end)))) {
    // `${!x[0]}`, `${!m[k]}`: the name is an element's value (`${!x[@]}` lists the keys), not followed here
    note(w, nameRisk(unknownName, "${!...}"))
  }
  for (const c of node.children) {
    // an associative array's subscript is a key, expanded once
    if (c.type !== "subscript" || isAssociative(scope, w.src.slice(c.start, c.end).replace(/\[.*$/s, ""))) continue
    const index = c.children.find((x) => x.field === "index")
    if (index) note(w, evaluated(w, w.src.slice(index.start, index.end), scope))
  }
  // ${v:=default} and ${v=default} assign the default when v is empty (unset): a known value stays
  const assigning = node.children.find((c) => c.field === "operator" && (c.type === ":=" || c.type === "="))
  // (`${a[0]:=v}` assigns the element: of an integer array, as arithmetic)
  const assigned = name ?? node.children.find((c) => c.type === "subscript")
  if (assigning && assigned) {
    const v = w.src.slice(assigned.start, assigned.end)
    const known = makeLookup(scope, w.shell)(v)
    if (!known && isInteger(scope, v)) {
      note(w, evaluated(w, w.src.slice(assigning.end, node.end - 1), scope))
    }
    if (!known) note(w, setVar(scope, v, undefined, false))
  }
  // ${v@P} expands the value as a prompt string: command substitutions and arithmetic in it run
  if (/@P\}$/.test(w.src.slice(node.start, node.end))) {
    const value = name ? scriptValue(scope)(w.src.slice(name.start, name.end)) : undefined
    // a variable the script does not set comes from the environment, or is special (BASH_COMMAND, $1): not known
    if (value === "unset" || value === undefined || /[$`]/.test(value)) note(w, `${w.src.slice(node.start, node.end)} expands the value as a prompt, which runs the command substitutions in it`)
  }
  // ${v:OFFSET:LENGTH}: both are arithmetic
  const colon = node.children.find((c) => c.field === "operator" && w.src.slice(c.start, c.end) === ":")
  if (colon) note(w, evaluated(w, w.src.slice(colon.end, node.end - 1), scope))
}

/**
 * `{NAME}>file`, `{a[SUB]}<file` on any command (a `{…}` word right before `<` or `>`): bash opens the
 * file and assigns the descriptor's number to the variable, evaluating SUB as arithmetic for an indexed
 * array. True when the words are such a name: they are no argument then.
 */
export function namedDescriptor(w: Reader, group: SNode[], scope: Scope): boolean {
  const last = group[group.length - 1]!
  const next = w.src[last.end]
  if (next !== "<" && next !== ">") return false
  const m = /^\{([A-Za-z_][A-Za-z0-9_]*)(?:\[(.*)\])?\}$/s.exec(w.src.slice(group[0]!.start, last.end))
  if (!m) return false
  const [, name, sub] = m
  if (sub !== undefined && !isAssociative(scope, name!)) {
    const risk = evaluated(w, sub, scope)
    if (risk) note(w, `the descriptor variable {${name}[${sub}]} of a redirection: ${risk}`)
  }
  note(w, setVar(scope, sub === undefined ? name! : `${name}[${sub}]`, undefined, false))
  return true
}
