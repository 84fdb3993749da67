// sed and awk programs can run commands (`sed 'e ..'`, `s/x/y/e`, awk system()) and write files
// (`w file`, print > "f"). Only programs made of known-harmless pieces count as plain text processing. Pure.

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

/** An awk program without system(), pipes, getline from commands or output redirection. */
export function awkIsPlain(program: string): boolean {
  const code = program.replace(/"(\\.|[^"\\])*"/g, '""').replace(/\/(\\.|[^/\\\n])+\//g, "//")
  return !/\bsystem\s*\(|\||\bgetline\b|\bprintf?\b[^;{}]*>|\bfflush\b|\bclose\s*\(/.test(code)
}
