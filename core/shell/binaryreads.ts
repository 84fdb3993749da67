// Whether a recursive reader prints a binary file's bytes as text: grep -a/--text/--binary-files=text,
// rg -a/--text/--null-data, ag --search-binary, diff -a/--text, git grep -a. Without one, grep, rg and diff print
// only "binary file matches" for a file holding a NUL (every tar, cpio and filesystem image), so an archive met
// in the walk passes no member on. Pure. Fails closed: a short-option cluster holding the letter counts.

// program -> the short letter, and the long names with the shortest prefix each accepts (rg and ag: none)
const TEXT: Record<string, { short: string; long: [string, number][] }> = {
  grep: { short: "a", long: [["text", 1], ["null-data", 5]] },
  rg: { short: "a", long: [["text", 4], ["null-data", 9]] },
  ag: { short: "", long: [["search-binary", 13]] },
  diff: { short: "a", long: [["text", 2]] },
  git: { short: "a", long: [["text", 4]] },
}

/** Whether the reader (its words, the program first) prints binary files as text. */
export function printsBinary(program: string, words: readonly { value?: string }[]): boolean {
  const p = program === "egrep" || program === "fgrep" ? "grep" : program
  const spec = TEXT[p]
  if (!spec) return false
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!.value
    // a word not known statically could be the option
    if (w === undefined) return true
    if (w === "--") break
    if (w.startsWith("--")) {
      const [name, value] = w.slice(2).split("=", 2) as [string, string | undefined]
      if (spec.long.some(([full, min]) => name.length >= min && full.startsWith(name))) return true
      // --binary-files=text (GNU grep takes the type whole; any abbreviation of the option)
      if (p === "grep" && name.length >= 3 && "binary-files".startsWith(name) && (value ?? words[i + 1]?.value ?? "t").startsWith("t")) return true
      continue
    }
    if (spec.short && /^-[^-]/.test(w) && w.includes(spec.short)) return true
    // grep -z reads NUL-separated lines: a binary file's text is printed
    if (p === "grep" && /^-[^-]/.test(w) && w.includes("z")) return true
  }
  return false
}
