// Where bash evaluates text as arithmetic — `(( ))`, `$(( ))`, `let`, `[[ x -eq y ]]`, and the array
// subscripts of the variable names read/printf -v/test -v/declare/unset take — a subscript expands
// again and a variable's value is evaluated as an expression: `x='a[$(id)]'; (( x ))` runs id. What we
// cannot prove inert there is unresolvable. Pure.
import type { Word } from "./word.ts"

/** What the script has set a variable to: a value, undefined when not known, or "unset" when the script never set it. */
export type ScriptValue = (name: string) => string | undefined | "unset"

const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\[(\d+|@|\*)\])?$/
const INTEGER = /^\s*[-+]?\d+\s*$/

/** Why a variable name bash will assign or test is not inert; undefined when it is a plain name. */
export function nameRisk(w: Word | undefined, what: string): string | undefined {
  if (!w) return undefined
  if (w.value === undefined) return `${what} names a variable that is not static (${w.text}): bash evaluates its subscript as arithmetic, which can run commands`
  if (PLAIN_NAME.test(w.value)) return undefined
  if (w.value.includes("[")) return `${what} ${w.value}: bash evaluates the subscript as arithmetic, which can run commands`
  return undefined
}

/** Why an arithmetic expression (its source text) is not inert; undefined when it is. */
export function arithmeticRisk(text: string, scriptValue: ScriptValue, quotesAllowed = false, unquoted = false): string | undefined {
  if (/['\\]/.test(text) || (!quotesAllowed && text.includes('"'))) {
    return `arithmetic ${clip(text)} holds quoted text: bash expands it again when it evaluates it, which can run commands`
  }
  // text the shell already unquoted (let's arguments): a `$` or a backtick left in it is expanded by the evaluation
  if (unquoted && /[$`]/.test(text)) return `arithmetic ${clip(text)} holds an expansion bash performs when it evaluates it, which can run commands`
  // `$(cmd)`, backticks, `$1`, `${x:-...}`: their text is not known, and bash evaluates it again as an
  // expression (`a[$(id)]` in it runs id); only names, numbers and $((...)) are read as they are
  const expansion = dynamicExpansion(text)
  if (expansion) return `arithmetic ${clip(text)} holds ${expansion}: bash evaluates it again as an expression, which can run commands`
  for (const name of arithmeticNames(text)) {
    const value = scriptValue(name)
    if (value === "unset" || (value !== undefined && (value === "" || INTEGER.test(value)))) continue
    return `arithmetic ${clip(text)} evaluates ${name}, which this script set to ${value === undefined ? "a value not known" : JSON.stringify(clip(value))}: bash evaluates it as an expression, which can run commands`
  }
  return undefined
}

/** The variables arithmetic text names, bare (`x`) or expanded (`$x`, `${x}`): bash evaluates the value
 *  of each as an expression. */
export function* arithmeticNames(text: string): Generator<string> {
  const re = /\$?\{?([A-Za-z_][A-Za-z0-9_]*)/g
  for (let m = re.exec(text); m; m = re.exec(text)) {
    // 16#ff and 0x1f are numbers, not names
    const before = text[m.index - 1]
    if (before !== undefined && /[0-9#.]/.test(before)) continue
    yield m[1]!
  }
}

// what may follow `$` in arithmetic and stay known: a name, ${name}, ${#name}, ${#a[@]}, $(( )), and the specials
// that are always numbers ($#, $?, $$, $!)
const KNOWN_EXPANSION = /^\$(?:[A-Za-z_][A-Za-z0-9_]*|\{#?[A-Za-z_][A-Za-z0-9_]*\}|\{#[A-Za-z_][A-Za-z0-9_]*\[[@*]\]\}|\(\(|[#?$!])/

/** The first expansion in arithmetic text whose value is not statically known; undefined when none. */
export function dynamicExpansion(text: string): string | undefined {
  if (text.includes("`")) return "a command substitution (backticks)"
  for (let i = text.indexOf("$"); i >= 0; i = text.indexOf("$", i + 1)) {
    if (KNOWN_EXPANSION.test(text.slice(i))) continue
    return text.startsWith("$(", i) ? `a command substitution ${clip(text.slice(i))}` : `the expansion ${clip(text.slice(i))}`
  }
  return undefined
}

function clip(s: string): string {
  const t = s.trim()
  return t.length > 40 ? `${t.slice(0, 37)}...` : t
}
