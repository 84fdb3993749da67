// Scripts for a shell other than bash: ccode reads every script with bash's grammar, so a script another
// shell reads differently is not judged as that shell runs it (dash reads `$'\'` as `$` and a quoted `\`,
// `((cmd))` as subshells running cmd, the `>` of `[[ a > f ]]` as a redirect). Pure.
import { isPlainCommand } from "./plain.ts"
import { splitSimpleList } from "./list.ts"

// POSIX shells (sh is dash on Debian and Ubuntu, ash in busybox): bash syntax they read otherwise
const POSIX = new Set(["sh", "dash", "ash", "posh"])
const BASH_ONLY: [RegExp, string][] = [
  [/\$'/, "$'…' (a $ and a quoted string: its quotes end elsewhere)"],
  [/\$"/, "$\"…\""],
  [/(^|[^$])\(\(/, "((…)) (a subshell in a subshell, which runs a command)"],
  [/\[\[/, "[[ … ]] (a command named [[, whose < and > are redirections)"],
  [/&>/, "&> (a background job, then a redirect)"],
  [/\|&/, "|&"],
  [/<<</, "<<<"],
  [/;;?&/, "case's ;& and ;;&"],
  [/(^|[\s;&|(){}])function\s/, "function NAME"],
  [/[<>]\(/, "<(…) and >(…)"],
  [/(^|[^$])\{[^{}\s]*(,|\.\.)[^{}\s]*\}/, "brace expansion ({a,b}, {1..3}), which it leaves as one word"],
]


/** Why `program` runs `script` otherwise than bash's reading of it (with the level that asks for it);
 *  undefined when they agree. */
export function foreignGrammar(program: string, script: string): { level: "medium" | "high"; reason: string } | undefined {
  if (program === "bash" || program === "rbash") return undefined
  if (POSIX.has(program)) {
    for (const [re, what] of BASH_ONLY) if (re.test(script)) return { level: "high", reason: `${program} reads ${what} in its own grammar, not bash's: what it runs is not what was checked` }
    return undefined
  }
  // zsh, ksh, mksh, yash, fish, csh, tcsh: plain commands mean the same there; beyond them zsh's
  // `${(e)x}` and glob qualifiers, ksh's `${ cmd; }`, fish's `(cmd)` run code (high: ci must not run them)
  if (isPlainCommand(script) || splitSimpleList(script) !== undefined) return undefined
  return { level: "high", reason: `${program} reads its script in its own grammar, not bash's: only plain commands are checked the way it runs them` }
}
