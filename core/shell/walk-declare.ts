// Declarations and assignments as the walk meets them (walk.ts): what they set, export, mark as integer,
// array or nameref, and what bash evaluates in them (subscripts, integer values, quoted arrays). The
// substitutions inside them are walked by the caller's function. Pure.
import type { SNode } from "./parser.ts"
import type { Construct } from "./types.ts"
import { loaderIn, makeLookup, type Cwd, type Scope } from "./scope.ts"
import { removesLoader } from "./unsetpath.ts"
import { evalWord, groupWords, literalWord } from "./word.ts"
import { assignmentOf } from "./effects.ts"
import { nameRisk } from "./arith.ts"
import { evaluated, namedDescriptor, names, note, type Reader } from "./walk-arith.ts"
import { braceMode, compoundRisk, declare, isAssociative, isInteger, markArray, markInteger, setVar } from "./setvars.ts"
import { declarePrints } from "./secretvars.ts"

/** Walks the command and process substitutions inside a node (the caller's walk). */
export type Substitutions = (node: SNode, scope: Scope, cwd: Cwd, ctx: Construct[]) => void

/** `NAME=VALUE` (also inside a declaration): subscripts and integer values are arithmetic; the value is recorded. */
/** `NAME=value` alone or before a command (`declared` false: bash does no brace expansion on the value),
 *  or a declaration's argument (`export x={a,b}` is `export x=a x=b`: brace-expanded, the last one holds). */
export function assign(w: Reader, subs: Substitutions, node: SNode, scope: Scope, cwd: Cwd, ctx: Construct[], exported: boolean, declared = false): void {
  subs(node, scope, cwd, ctx)
  // arr[i]=v evaluates i; a variable declared -i evaluates what it is given
  const target = node.children.find((c) => c.field === "name")
  const associative = target !== undefined && isAssociative(scope, w.src.slice(target.start, target.end).replace(/\[.*$/s, ""))
  const index = target?.type === "subscript" && !associative ? target.children.find((c) => c.field === "index") : undefined
  if (index) note(w, evaluated(w, w.src.slice(index.start, index.end), scope))
  const value = node.children.find((c) => c.field === "value")
  if (target && value?.type === "array") markArray(scope, w.src.slice(target.start, target.end).replace(/\[.*$/, ""))
  // an indexed array's `( [KEY]=v )` elements: each KEY is expanded, then evaluated as arithmetic
  if (value?.type === "array" && !associative) {
    for (const key of elementKeys(w.src, value)) {
      const risk = evaluated(w, key, scope)
      if (risk) note(w, `an array element's subscript [${key}]: ${risk}`)
    }
  }
  if (target && value && isInteger(scope, w.src.slice(target.start, target.end))) note(w, evaluated(w, w.src.slice(value.start, value.end), scope))
  const a = assignmentOf(w.src, node, makeLookup(scope, w.shell, cwd), declared ? braceMode(scope) : false)
  if (!a) return
  // a variable the shell inherited is exported already: `TMPDIR=/root; mktemp` passes the new value on
  const inherited = Boolean(w.shell.env && Object.hasOwn(w.shell.env, a.name))
  note(w, setVar(scope, a.name, a.append ? undefined : a.value.value, exported || inherited))
}

/** `declare`/`typeset`/`local`/`export`/`readonly` with their flags, names and assignments. */
export function declaration(w: Reader, subs: Substitutions, node: SNode, scope: Scope, cwd: Cwd, ctx: Construct[]): void {
  // `export {PATH}>/dev/null`: the descriptor variable is set, and is no name the builtin is given
  node = { ...node, children: node.children.filter((c, i) => i === 0 || !c.named || !namedDescriptor(w, [c], scope)) }
  const keyword = node.children[0]?.type ?? ""
  const flags = node.children.filter((c) => c.type === "word").map((c) => w.src.slice(c.start, c.end))
  names(w, node.children.filter((c) => c.named && c.type !== "variable_assignment"), scope, keyword)
  removesLoaderHere(w, keyword, node.children.filter((c) => c.named && c.type !== "variable_assignment"), scope, ctx)
  const { globbed } = declarePrints(w.src, node, makeLookup(scope, w.shell, cwd))
  if (flags.some((f) => /^-[a-zA-Z]*i/.test(f))) {
    for (const c of node.children) {
      const n = c.type === "variable_assignment" ? c.children.find((x) => x.field === "name") : c.type === "variable_name" || c.type === "word" ? c : undefined
      if (n && !w.src.slice(n.start, n.end).startsWith("-")) markInteger(scope, w.src.slice(n.start, n.end))
    }
  }
  for (const c of node.children) {
    if (c.type !== "variable_assignment") continue
    const name = c.children.find((x) => x.field === "name")
    if (name?.type === "subscript") note(w, nameRisk(literalWord(w.src.slice(name.start, name.end)), keyword))
    // an integer variable evaluates what it is given as arithmetic; a nameref's value is a name
    const value = c.children.find((x) => x.field === "value")
    if (value && flags.some((f) => /^-[a-zA-Z]*n/.test(f))) {
      const lookup = makeLookup(scope, w.shell, cwd)
      for (const v of evalWord([value], w.src, lookup)) {
        note(w, nameRisk(v, `${keyword} -n`))
        // the variable it names is read through it from here: a secret one the script did not set counts
        const target = v.value === undefined ? undefined : /^[A-Za-z_][A-Za-z0-9_]*/.exec(v.value)?.[0]
        if (target) lookup(target)
      }
    }
    if (value && flags.some((f) => /^-[a-zA-Z]*i/.test(f))) note(w, evaluated(w, w.src.slice(value.start, value.end), scope))
    // an array given a quoted `(..)` (declare -a b='([$(id)]=1)'): bash parses that text again
    const target = name ? w.src.slice(name.start, name.end).replace(/\[.*$/, "") : undefined
    if (target && flags.some((f) => /^-[a-zA-Z]*[aA]/.test(f))) markArray(scope, target, flags.some((f) => /^-[a-zA-Z]*A/.test(f)))
    if (target && value && value.type !== "array") {
      for (const v of evalWord([value], w.src, makeLookup(scope, w.shell, cwd))) note(w, compoundRisk(keyword, target, v.value, scope))
    }
  }
  const exported = keyword === "export" || flags.some((f) => /^-[a-zA-Z]*x/.test(f))
  const nameref = keyword !== "export" && keyword !== "readonly" && flags.some((f) => /^-[a-zA-Z]*n/.test(f))
  const lookup = makeLookup(scope, w.shell, cwd)
  const others: SNode[] = []
  // with no names (`declare -p`, `export -p`, `declare -x`, `typeset` alone) it prints the variables, the
  // environment included: a command the table judges (print-environment)
  // (a word known only at run time may be an option); one naming variables by a glob is judged so too
  if (!node.children.some((c) => c.type === "variable_assignment")) {
    const words = groupWords(w.src, node.children.filter((c) => c.named)).flatMap((g) => evalWord(g, w.src, lookup, false, braceMode(scope)))
    if (globbed || words.every((x) => x.value === undefined || x.value === "" || /^[-+]/.test(x.value))) {
      w.out.commands.push({ words: [literalWord(keyword), ...words], assignments: [], redirects: [], context: ctx, text: w.src.slice(node.start, node.end), cwd, loader: loaderIn(scope) })
    }
  }
  for (const c of node.children) {
    if (c.type === "variable_assignment" && !nameref) assign(w, subs, c, scope, cwd, ctx, exported, true)
    else if (c.type === "variable_assignment") {
      subs(c, scope, cwd, ctx)
      const a = assignmentOf(w.src, c, lookup)
      if (a) note(w, declare(keyword, [literalWord("-n"), { ...a.value, value: a.value.value === undefined ? undefined : `${a.name}=${a.value.value}` }], scope))
    } else if (c.named && c.type !== "word") {
      subs(c, scope, cwd, ctx)
      others.push(c)
    }
  }
  // NAME=VALUE written quoted or in pieces (`export 'X=1'`, `export X''=1`): bash reads the word after
  // quote removal, as the builtin does when reached through `builtin` or `command`
  const words = groupWords(w.src, others).flatMap((g) => evalWord(g, w.src, lookup, false, braceMode(scope)))
  note(w, declare(keyword, [...flags.map((f) => literalWord(f)), ...words], scope, true))
}

/** The KEY of every `[KEY]=value` (or `[KEY]+=value`) element of an array literal `( … )`, as written.
 *  An element is the text of adjacent nodes (the parser may cut `[`…`]=x` into two). */
function elementKeys(src: string, array: SNode): string[] {
  const elements: string[] = []
  let end = -1
  for (const e of array.children) {
    if (!e.named || e.type === "comment") continue
    if (e.start === end) elements[elements.length - 1] += src.slice(e.start, e.end)
    else elements.push(src.slice(e.start, e.end))
    end = e.end
  }
  const keys: string[] = []
  for (const text of elements) {
    if (!text.startsWith("[")) continue
    const close = closingBracket(text)
    if (close > 0 && (text[close + 1] === "=" || text.startsWith("+=", close + 1))) keys.push(text.slice(1, close))
  }
  return keys
}

// the `]` that closes the `[` at 0, past quoted text and nested brackets; -1 when there is none
function closingBracket(text: string): number {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === "\\") i++
    else if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1)
      if (end < 0) return -1
      i = end
    } else if (c === "[") depth++
    else if (c === "]" && --depth === 0) return i
  }
  return -1
}

/** `unset PATH` / `local PATH` in a function (unsetpath.ts), the names read as bash reads them (quotes,
 *  braces, the script's variables); a name from a variable the script did not set is not known. */
export function removesLoaderHere(w: Reader, program: string, nodes: SNode[], scope: Scope, ctx: Construct[]): void {
  const lookup = makeLookup(scope, { ...w.shell, env: undefined })
  const words = groupWords(w.src, nodes).flatMap((g) => evalWord(g, w.src, lookup, false, braceMode(scope)))
  const found = removesLoader(program, words, ctx.includes("function"))
  if (found) (w.out.findings ??= []).push(found)
}
