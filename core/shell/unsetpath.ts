// Removing a variable that changes what runs, in every spelling bash accepts: `unset PATH` (also through
// `builtin`, `command`, `\unset`, braces, quotes) and, inside a function, `local PATH` / `declare PATH` /
// `typeset PATH` with no value, which make PATH a local that is unset there. With PATH unset bash looks
// for programs in the current directory (`unset PATH; ls` runs a workspace ls). Taking PATH out of the
// environment (`export -n PATH`, `declare +x PATH`) does the same to a shell started from here. Pure.
import type { Finding } from "./raw.ts"
import type { Word } from "./word.ts"
import { isLoaderVar } from "./scope.ts"

const LOCALS = new Set(["local", "declare", "typeset"])

/** The finding for `unset NAME...` or a valueless declaration (words after the builtin's name, after
 *  expansion); inFunction: the words run in a function body, where a declaration makes a local. */
export function removesLoader(program: string, words: Word[], inFunction: boolean): Finding | undefined {
  if (program === "unset") return unsets(words)
  const { flags, plus } = split(words)
  // `export -n PATH`, `declare +x PATH`: PATH stays in this shell but a shell started from it has none
  if ((program === "export" && /n/.test(flags)) || (LOCALS.has(program) && /x/.test(plus))) {
    const found = unexports(program, words)
    if (found) return found
  }
  if (LOCALS.has(program) && inFunction) return localWithoutValue(program, words)
  return undefined
}

function unexports(program: string, words: Word[]): Finding | undefined {
  let found: Finding | undefined
  for (const w of split(words).operands) {
    const name = w.value?.replace(/[=[].*$/s, "")
    if (name === undefined) found ??= { name: "loader-env", level: "medium", reason: `${program} ${w.text}: a name known only at run time could be PATH, taken out of the environment` }
    else if (name === "PATH") return { name: "loader-env", level: "high", reason: `${program} takes PATH out of the environment: a shell started from here has no PATH and looks for programs in the current directory` }
  }
  return found
}

function unsets(words: Word[]): Finding | undefined {
  const { flags, operands } = split(words)
  // `unset -f NAME` removes a function; with -f and -v together bash refuses and removes nothing
  if (/f/.test(flags)) return undefined
  let found: Finding | undefined
  for (const w of operands) {
    if (w.value?.includes("=")) continue
    const name = w.value?.replace(/\[.*$/s, "")
    if (name === undefined) found ??= { name: "loader-env", level: "medium", reason: `unset ${w.text}: a name known only at run time could be PATH` }
    else if (isLoaderVar(name)) return { name: "loader-env", level: "high", reason: `unsets ${name}, which changes what code runs (with PATH unset, bash looks for programs in the current directory)` }
  }
  return found
}

function localWithoutValue(program: string, words: Word[]): Finding | undefined {
  const { flags, operands } = split(words)
  // -g: the global variable, left as it is; -I: the local inherits the value
  if (/[gI]/.test(flags)) return undefined
  let found: Finding | undefined
  for (const w of operands) {
    if (w.value?.includes("=")) continue
    if (w.value === undefined) found ??= { name: "loader-env", level: "medium", reason: `${program} ${w.text} in a function: a name known only at run time could be PATH, which a local without a value unsets there` }
    else if (w.value === "PATH" || w.value.startsWith("PATH[")) return { name: "loader-env", level: "high", reason: `${program} PATH without a value in a function unsets PATH there (bash then looks for programs in the current directory)` }
  }
  return found
}

// options up to `--` or the first operand (`-` letters in flags, `+` ones in plus); a word known only at
// run time is an operand (it may be a name)
function split(words: Word[]): { flags: string; plus: string; operands: Word[] } {
  let flags = ""
  let plus = ""
  let i = 0
  for (; i < words.length; i++) {
    const v = words[i]!.value
    if (v === "--") {
      i++
      break
    }
    if (v === undefined || !/^[-+]./.test(v)) break
    if (v.startsWith("-")) flags += v.slice(1)
    else plus += v.slice(1)
  }
  return { flags, plus, operands: words.slice(i) }
}
