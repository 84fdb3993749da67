// What a statement changes for the ones after it: the directory (`cd`), variables it sets (`X=..`,
// `read X`, `printf -v X`) and whether their values can be known. Pure.
import type { SNode } from "./parser.ts"
import { dirStack, type Cwd, type Scope } from "./scope.ts"
import { evalWord, literalWord, type BraceMode, type Lookup, type Word } from "./word.ts"
import { changeDir, joinCwd, resolveWord } from "./cwd.ts"
import { cdableTarget, pushdRotation, shoptCdable } from "./cdmoves.ts"
import { scriptValue } from "./walk-arith.ts"
import { builtinCall, setByBuiltin } from "./setvars.ts"

/** cd and friends move the rest of the list; read/printf -v/mapfile/export/... set variables (the
 *  reason when one they set cannot be known goes to `note`). Reached through `time`, `builtin`, `command`. */
export function afterCommand(words: Word[], scope: Scope, cwd: Cwd, home: string, note: (why: string | undefined) => void, lookup?: Lookup): { ok: Cwd; fail: Cwd } {
  const call = builtinCall(words)
  const name = call.name
  const args = call.args
  note(setByBuiltin(name, args, scope))
  if (name === "shopt") {
    const cdable = shoptCdable(args)
    if (cdable !== undefined) scope.cdableVars = cdable
  }
  const dirsBefore = dirStack(scope)
  if (name === "pushd" || name === "popd" || (name === "dirs" && args.some((a) => a.value === "-c"))) scope.dirs = stackAfter(name, args, scope, cwd, home)
  if (name === "cd" || name === "pushd") {
    if (name === "pushd" && args.some((a) => a.value === "-n")) return { ok: cwd, fail: cwd }
    // `cd -` goes to $OLDPWD (`OLDPWD=/x; cd -`)
    const old = args.find((a) => a.value !== "--")?.value === "-" ? scriptValue(scope)("OLDPWD") : undefined
    const ok = old?.startsWith("/") ? [old] : moved(name, args, scope, dirsBefore, cwd, home, lookup)
    movesPwd(scope)
    return { ok, fail: cwd }
  }
  if (name === "popd" && !args.some((a) => a.value === "-n")) {
    movesPwd(scope)
    return { ok: null, fail: cwd }
  }
  return { ok: cwd, fail: cwd }
}

// `~-` and `~+`, $OLDPWD and $PWD: a move that succeeds sets both, one that fails leaves them. OLDPWD is
// not known after it; PWD follows the directory the walk tracks (makeLookup), unless the script assigned
// it, then it is not known either
function movesPwd(scope: Scope): void {
  scope.moved = true
  scope.vars.set("OLDPWD", undefined)
  if (scriptValue(scope)("PWD") !== "unset") scope.vars.set("PWD", undefined)
}

// the operand as a path, a stack entry (`pushd +1`) or, under cdable_vars, a variable's value
function moved(name: string, args: Word[], scope: Scope, dirs: readonly string[], cwd: Cwd, home: string, lookup: Lookup | undefined): Cwd {
  const operand = args.find((a) => !(name === "cd" && a.value !== undefined && /^-[LPe@]+$/.test(a.value)) && a.value !== "--")
  if (name === "pushd") {
    const rotated = pushdRotation(operand, dirs, cwd)
    if (rotated !== undefined) return rotated
  }
  const paths = changeDir(cwd, args, home)
  const named = operand ? cdableTarget(operand, scope, cwd, home, lookup) : undefined
  return named === undefined ? paths : joinCwd(paths, named)
}

// `pushd -n DIR` puts DIR at ~1 and cannot fail; any other change to the stack (a pushd or popd that
// may fail, a rotation, dirs -c) leaves nothing known about it
function stackAfter(name: string, args: Word[], scope: Scope, cwd: Cwd, home: string): string[] {
  const dir = args.find((a) => a.value !== "-n" && a.value !== "--")
  if (name === "popd" && args.some((a) => a.value === "-n") && !dir) return dirStack(scope).slice(1)
  if (name !== "pushd" || !args.some((a) => a.value === "-n") || !dir || /^[+-]\d+$/.test(dir.value ?? "+0") || dir.glob) return []
  const paths = dir.value === undefined ? null : resolveWord(dir, cwd, home)
  return paths?.length === 1 ? [paths[0]!, ...dirStack(scope)] : []
}

/** A `NAME=value` node's name and value. `braces`: the value of a declaration's argument is
 *  brace-expanded (the last word is what is assigned), a plain assignment's never. */
export function assignmentOf(src: string, node: SNode, lookup: Lookup, braces: BraceMode = false): { name: string; value: Word; append: boolean } | undefined {
  const nameNode = node.children.find((c) => c.field === "name")
  if (!nameNode) return undefined
  const name = src.slice(nameNode.start, nameNode.end)
  const append = node.children.some((c) => c.type === "+=")
  const valueNodes = node.children.filter((c) => c.field === "value")
  const value = valueNodes.length ? (braces === false ? evalWord(valueNodes, src, lookup, true)[0] : declaredValue(valueNodes, src, lookup, braces)) ?? literalWord("") : literalWord("")
  return { name, value: valueNodes.length > 1 || valueNodes[0]?.type === "array" ? { ...value, value: undefined } : value, append }
}

// `export x=a{1,2}`: bash expands the whole word `x=a{1,2}` to `x=a1 x=a2`; the value is the last one's
function declaredValue(nodes: SNode[], src: string, lookup: Lookup, braces: BraceMode): Word | undefined {
  const words = evalWord(nodes, src, lookup, true, braces)
  return words[words.length - 1]
}
