// Where cd and pushd go beyond their operand as a path: `shopt -s cdable_vars` makes an operand that is
// not a directory the name of a variable holding one (`r=/root; cd r`), and `pushd +N`/`-N` and a bare
// `pushd` rotate the directory stack. Pure.
import type { Cwd, Scope } from "./scope.ts"
import { literalWord, type Lookup, type Word } from "./word.ts"
import { resolveWord } from "./cwd.ts"

/** Whether `shopt -s cdable_vars` is on here (inherited from the parent scope when this one has not set it). */
export function cdableVars(scope: Scope): boolean {
  for (let s: Scope | undefined = scope; s; s = s.parent) if (s.cdableVars !== undefined) return s.cdableVars
  return false
}

/** What a `shopt` call does to cdable_vars: true/false, undefined when it leaves it. A name not known
 *  statically under -s may be cdable_vars. */
export function shoptCdable(args: Word[]): boolean | undefined {
  let on: boolean | undefined
  let setOptions = false
  const names: Word[] = []
  for (const a of args) {
    if (a.value !== undefined && /^-[pqsuo]+$/.test(a.value)) {
      if (a.value.includes("s")) on = true
      if (a.value.includes("u")) on = false
      if (a.value.includes("o")) setOptions = true
    } else names.push(a)
  }
  if (on === undefined || setOptions) return undefined
  if (names.some((n) => n.value === "cdable_vars")) return on
  return on && names.some((n) => n.value === undefined) ? true : undefined
}

/** `pushd` with no operand or `+N`/`-N`: the stack entry (`dirs`: the known ones before the call, ~1
 *  first) it makes the cwd when known (null: unknown); undefined when the operand is a directory. */
export function pushdRotation(operand: Word | undefined, dirs: readonly string[], cwd: Cwd): Cwd | undefined {
  if (!operand) return dirs[0] !== undefined ? [dirs[0]] : null
  const m = operand.value === undefined ? null : /^([+-])(\d+)$/.exec(operand.value)
  if (!m) return undefined
  const n = Number(m[2])
  // `-N` counts from the bottom of the stack, whose length is not known
  if (m[1] === "-") return null
  if (n === 0) return cwd
  return dirs[n - 1] !== undefined ? [dirs[n - 1]!] : null
}

/** Under cdable_vars, an operand naming a variable may lead to its value: the candidates to add to the
 *  path's (null: unknown); undefined when it cannot (not a name, or no such variable). */
export function cdableTarget(operand: Word, scope: Scope, cwd: Cwd, home: string, lookup: Lookup | undefined): Cwd | undefined {
  if (!cdableVars(scope) || operand.value === undefined || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(operand.value)) return undefined
  if (!lookup) return null
  const value = lookup(operand.value)
  if (value === undefined) return null
  if (value === "") return undefined
  return resolveWord(literalWord(value), cwd, home)
}
