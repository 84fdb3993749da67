// Shell options that change what the commands after them mean, which the analysis does not follow:
// `shopt -s lastpipe` runs a pipeline's last part in this shell (its cd, read, export persist) and
// `set -k` (`set -o keyword`, `shopt -os keyword`) makes NAME=value arguments the command's environment.
// A word not known statically may be either option. Pure.
import type { Word } from "./word.ts"

export const LASTPIPE_REASON = "shopt -s lastpipe runs a pipeline's last part in the shell itself: what it changes (directory, variables) is not followed"
export const KEYWORD_REASON = "set -k makes NAME=value arguments the command's environment"
export const HISTORY_REASON = "history expansion turned on (set -H, -o histexpand, -o history): a later `!$` or `!!:1` stands for words of earlier lines, which is not followed"

/** shopt words: the option letters given (`-qs`, `-s -o`) and the names; undefined when a word is not
 *  known, which may be an option (-s, -o) as well as a name. */
function shoptWords(args: Word[]): { letters: string; names: (string | undefined)[] } {
  let letters = ""
  const names: (string | undefined)[] = []
  let options = true
  for (const a of args) {
    const v = a.value
    if (options && v === "--") options = false
    else if (options && v !== undefined && /^-[a-zA-Z]+$/.test(v)) letters += v.slice(1)
    else names.push(v)
  }
  return { letters, names }
}

/** `shopt -s lastpipe` (any spelling), or a name or option not known statically under shopt. */
export function shoptLastpipe(args: Word[]): boolean {
  const { letters, names } = shoptWords(args)
  // -o: the names are set -o ones
  if (letters.includes("o")) return false
  const unknown = names.includes(undefined)
  return (letters.includes("s") || unknown) && (unknown || names.includes("lastpipe"))
}

/** `set -k`, `set -o keyword`, a bundle with k (`set -ek`), `shopt -os keyword`, or a word not known statically there. */
export function setsKeyword(program: string, args: Word[]): boolean {
  if (program === "shopt") {
    const { letters, names } = shoptWords(args)
    const unknown = names.includes(undefined)
    return (letters.includes("s") || unknown) && (letters.includes("o") || unknown) && (unknown || names.includes("keyword"))
  }
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value
    if (v === undefined) return true
    if (v === "--" || v === "-" || !/^[-+]/.test(v)) return false
    // each o in a bundle takes the next word as an option name (`set -eo keyword`)
    for (const c of v.slice(1)) {
      if (c === "k" && v.startsWith("-")) return true
      if (c !== "o") continue
      const name = args[++i]
      if (name === undefined) break
      if (v.startsWith("-") && (name.value === undefined || name.value === "keyword")) return true
    }
  }
  return false
}

/** `set -H`, `set -o histexpand`, `set -o history` (bundles too: `set -eH`, `set -Ho history`),
 *  `shopt -s -o histexpand`: bash then replaces `!` forms with words of earlier lines. */
export function setsHistory(program: string, args: Word[]): boolean {
  if (program === "shopt") {
    const { letters, names } = shoptWords(args)
    return letters.includes("s") && letters.includes("o") && names.some((n) => n === "histexpand" || n === "history")
  }
  return historyOptions(args)
}

/** Options (set's or a shell's) that turn history expansion on: -H or -o histexpand / -o history. */
export function historyOptions(args: Word[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value
    if (v === undefined || v === "--" || v === "-" || !/^[-+]/.test(v) || v.startsWith("--")) return false
    for (const c of v.slice(1)) {
      if (c === "H" && v.startsWith("-")) return true
      if (c !== "o") continue
      const name = args[++i]?.value
      if (v.startsWith("-") && (name === "histexpand" || name === "history")) return true
    }
  }
  return false
}

export const POSIX_REASON = "posix mode (set -o posix, shopt -so posix) changes how the lines after it are read: aliases expand, NAME=v before a special builtin stays set, a quote inside \"${…}\" is a plain character; that is not followed"
export const GLOB_ALIAS_REASON = "shopt -s expand_aliases makes a later command name run an alias's value, shopt -u globskipdots lets .* match .. (the parent folder), shopt -s xpg_echo makes echo decode escapes; none is followed"

/** `set -o posix` (`set -eo posix`), `shopt -so posix`, or a word not known statically there. */
export function setsPosix(program: string, args: Word[]): boolean {
  if (program === "shopt") {
    const { letters, names } = shoptWords(args)
    const unknown = names.includes(undefined)
    return (letters.includes("s") || unknown) && (letters.includes("o") || unknown) && (unknown || names.includes("posix"))
  }
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value
    if (v === undefined) return true
    if (v === "--" || v === "-" || !/^[-+]/.test(v)) return false
    for (const c of v.slice(1)) {
      if (c !== "o") continue
      const name = args[++i]
      if (name === undefined) break
      if (v.startsWith("-") && (name.value === undefined || name.value === "posix")) return true
    }
  }
  return false
}

/** `shopt -s expand_aliases`, `shopt -s xpg_echo`, `shopt -u globskipdots` (any spelling), or a name or option not known statically. */
export function shoptGlobAlias(args: Word[]): boolean {
  const { letters, names } = shoptWords(args)
  if (letters.includes("o")) return false
  if (names.includes(undefined)) return true
  return (letters.includes("s") && (names.includes("expand_aliases") || names.includes("xpg_echo"))) || (letters.includes("u") && names.includes("globskipdots"))
}
