// sed and awk programs can run commands (`sed 'e ..'`, `s/x/y/e`, awk system()) and write files
// (`w file`, print > "f"). Only programs made of known-harmless pieces count as plain text processing. Pure.
import { looksSecretVariable } from "../base/secretname.ts"

/** A sed script that only selects, substitutes and prints; anything else may run or write. */
export function sedIsPlain(script: string): boolean {
  let i = 0
  const s = script
  const skipBlank = () => {
    while (i < s.length && /[\s;]/.test(s[i]!)) i++
  }
  const regex = (delim: string): boolean => {
    for (i++; i < s.length && s[i] !== delim; i++) if (s[i] === "\\") i++
    if (i >= s.length) return false
    i++
    return true
  }
  const address = (): boolean => {
    if (/[0-9$]/.test(s[i] ?? "")) {
      while (/[0-9$~+]/.test(s[i] ?? "")) i++
      return true
    }
    if (s[i] === "/") return regex("/")
    if (s[i] === "\\" && s[i + 1]) {
      i++
      return regex(s[i]!)
    }
    return true
  }
  while (true) {
    skipBlank()
    if (i >= s.length) return true
    if (!address()) return false
    if (s[i] === ",") {
      i++
      if (!address()) return false
    }
    while (s[i] === " " || s[i] === "!") i++
    const cmd = s[i]
    if (cmd === undefined) return false
    if ("pdqQ=lnNPDgGhHx{}".includes(cmd)) {
      i++
      continue
    }
    if (cmd === "s" || cmd === "y") {
      const delim = s[i + 1]
      if (!delim || /[\s\\\n]/.test(delim)) return false
      i++
      if (!regex(delim)) return false
      i--
      if (!regex(delim)) return false
      const flags = /^[gpiImM0-9]*/.exec(s.slice(i))![0]
      i += flags.length
      continue
    }
    if ("aic".includes(cmd)) {
      // text to insert runs to the end of the line
      while (i < s.length && s[i] !== "\n") i++
      continue
    }
    return false
  }
}

/**
 * An awk program without system(), pipes, getline or output redirection. Nothing is stripped first: a
 * string or a regex literal can hide a quote or a slash that would fool the stripping (`/"/ {system("id")}`).
 * A `>` is a comparison only in a pattern, outside every action; with a string, a regex, an escape or a comment in
 * the program we cannot be sure where the actions are, so any `>` then counts as a redirect.
 */
export function awkIsPlain(program: string): boolean {
  if (/system|getline|\||@|fflush|close/.test(program)) return false
  if (!program.includes(">")) return true
  if (/["/\\#]/.test(program)) return false
  let depth = 0
  for (const c of program) {
    if (c === "{") depth++
    else if (c === "}") depth--
    else if (c === ">" && depth !== 0) return false
  }
  return true
}

/**
 * Whether an awk program reads ENVIRON other than as `ENVIRON["NAME"]` (one variable named in the
 * program): `for (k in ENVIRON)`, `ENVIRON[k]` print the environment, secrets included. The name
 * alone is searched, inside strings too: a false match only asks.
 */
export function awkReadsEnvironment(program: string): boolean {
  const all = program.match(/(?<![A-Za-z0-9_])ENVIRON(?![A-Za-z0-9_])/g)?.length ?? 0
  const named = program.match(/(?<![A-Za-z0-9_])ENVIRON\["[A-Za-z_][A-Za-z0-9_]*"\]/g)?.length ?? 0
  return all > named
}

/** The secret variables (looksSecretVariable: by name, or by the value `env` gives them) an awk program
 *  reads as `ENVIRON["NAME"]`. */
export function awkSecretNames(program: string, env?: Record<string, string | undefined>): string[] {
  const out: string[] = []
  for (const m of program.matchAll(/(?<![A-Za-z0-9_])ENVIRON\["([A-Za-z_][A-Za-z0-9_]*)"\]/g)) if (looksSecretVariable(m[1]!, env) && !out.includes(m[1]!)) out.push(m[1]!)
  return out
}

/** awk opens every ARGV[1..ARGC-1] as input: a program that touches ARGV or ARGC names files the command line does not. */
export function awkUsesArgv(program: string): boolean {
  return /(?<![A-Za-z0-9_])ARG(V|C)(?![A-Za-z0-9_])/.test(program)
}
