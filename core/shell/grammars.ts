// Scripts for a shell other than bash: ccode reads every script with bash's grammar, so a script another
// shell reads differently is not judged as that shell runs it (dash reads `$'\'` as `$` and a quoted `\`,
// `((cmd))` as subshells running cmd, the `>` of `[[ a > f ]]` as a redirect, `a[0]=./x` as a command,
// `[^x]` in a glob as the characters ^ and x, `.*` as matching `..`). Pure.
import { isPlainCommand } from "./plain.ts"
import { splitSimpleList } from "./list.ts"
import { wordFacts, type WordFacts } from "./posixwords.ts"
import { codeOnly } from "./posixlex.ts"

const ECHO_PIPED = "echo with a backslash piped on (its echo decodes escapes: the text passed on is not the one checked)"
const DOT_GLOB_REASON = "a glob starting with a dot (.*, .?), which matches .. (the parent folder) there"
const ALIAS_REASON = "alias definitions (it expands aliases in scripts: a later command name runs the alias's value)"
const SPECIAL_REASON = "NAME=value before a special builtin (:, eval, export, set, …), which keeps the assignment in the shell"
// the same, found on the quote-removed words (`\alias`, `ev""al`, `\:`, `"".*`), by the shells they concern
type WordCheck = [keyof WordFacts, string]
const EVAL_EXPANDED_REASON = "eval (or trap) of text built from variables or command output, which it reads with its own rules (an alias defined there changes later commands)"
const WORDS_POSIX_MODE: WordCheck[] = [["alias", ALIAS_REASON], ["specialAssign", SPECIAL_REASON], ["evalExpanded", EVAL_EXPANDED_REASON]]
const EXPANSION_GLOB_REASON = "a glob that starts with an expansion ($x*: from x=. it is .*, which matches .. there)"
const WORDS_POSIX: WordCheck[] = [...WORDS_POSIX_MODE, ["echoPiped", ECHO_PIPED], ["dotGlob", DOT_GLOB_REASON], ["expansionGlob", EXPANSION_GLOB_REASON]]
const WORDS_OTHER: WordCheck[] = [...WORDS_POSIX_MODE, ["dotGlob", DOT_GLOB_REASON], ["expansionGlob", EXPANSION_GLOB_REASON]]

// POSIX shells (sh is dash on Debian and Ubuntu, ash in busybox): bash syntax they read otherwise
const POSIX = new Set(["sh", "dash", "ash", "posh"])
const BASH_ONLY: [RegExp, string][] = [
  [/\$'/, "$'…' (a $ and a quoted string: its quotes end elsewhere)"],
  [/\$"/, "$\"…\""],
  [/\$\[/, "$[…] (a $ and a glob bracket)"],
  [/(^|[^$])\(\(/, "((…)) (a subshell in a subshell, which runs a command)"],
  [/\[\[/, "[[ … ]] (a command named [[, whose < and > are redirections)"],
  [/&>/, "&> (a background job, then a redirect)"],
  [/\|&/, "|&"],
  [/<<</, "<<<"],
  [/;;?&/, "case's ;& and ;;&"],
  [/(^|[\s;&|(){}])function\s/, "function NAME"],
  [/[<>]\(/, "<(…) and >(…)"],
  [/(^|[^$])\{[^{}\s]*(,|\.\.)[^{}\s]*\}/, "brace expansion ({a,b}, {1..3}), which it leaves as one word"],
  [/(^|[\s;&|(){}`'"])echo\s[^|;&\n]*\\[^|;&\n]*\|/, ECHO_PIPED],
]
const DOT_GLOB: [RegExp, string] = [/(^|[\s=:/<>;&|(){}])\.(?:[*?]|\[(?!!\.\]))/, DOT_GLOB_REASON]
// the same, tested on the script's unquoted text (quoted characters blanked: `grep '[^a-z]'` is no glob)
const BASH_ONLY_UNQUOTED: [RegExp, string][] = [
  [/(^|[\s;&|(){}`'"])[A-Za-z_]\w*(?:\[[^\]]*\]\+?|\+)=/, "an array or append assignment (a[0]=v, a+=v), which is a command name there, run as a path when it holds a /"],
  [/\[\^/, "a glob bracket [^…], whose ^ is a member there, not a negation"],
  [/\[[^\]\s]*\[[=.]/, "a glob bracket holding [= or [. (no equivalence or collating class there: the bracket closes elsewhere)"],
  DOT_GLOB,
  [/(^|[\s;&|(){}])\d{2,}[<>]/, "a redirect of a descriptor of two digits (10<), whose digits are an argument there"],
  [/\{[A-Za-z_]\w*(?:\[[^\]]*\])?\}[<>]/, "a redirect {var}<, whose {var} is an argument there"],
  [/(^|[\s:])~(?:[-+]|\d)/, "a tilde ~+, ~- or ~N (left as a relative path there)"],
  [/[^\s;&|(){}]\s+[^\s;&|(){}]*=~/, "a ~ after = in an argument (left as text there)"],
]
// what a shell that is not bash in its default mode (dash, bash in posix mode, ksh, zsh) runs otherwise,
// on the unquoted text
const POSIX_MODE_UNQUOTED: [RegExp, string][] = [
  [/(^|[\s;&|(){}`'"])alias\s/, ALIAS_REASON],
  [/(^|[\s;&|(){}`'"])(?:[A-Za-z_]\w*=\S*\s+)+(?::|\.|eval|exit|export|readonly|return|set|shift|times|trap|unset|break|continue|exec(?=\s*(?:$|[;&|)]|\d*[<>])))(?=$|[\s;&|)])/, SPECIAL_REASON],
]
// on the text itself: in posix mode a ' or " inside "${…}" is an ordinary character, so the expansion and
// the quotes end elsewhere
const POSIX_MODE: [RegExp, string][] = [[/\$\{[^}]*['"]/, "a quote inside ${…} (an ordinary character there: the expansion and the quoting end elsewhere)"]]

const EVAL = /(^|[\s;&|(){}`])(?:eval|trap)(?=$|\s)/

/** The script with every quoted character (and each backslash-escaped one) replaced by `_`, the quotes
 *  kept: what is left is read as syntax and globs. */
export function unquotedText(script: string): string {
  let out = ""
  // the characters from `from` on are copied as they are, a run at a time (not one concatenation each)
  let from = 0
  for (let i = 0; i < script.length; i++) {
    const c = script.charCodeAt(i)
    if (c === 92) {
      out += script.slice(from, i) + "__"
      i++
      from = i + 1
    } else if (c === 39 || c === 34) {
      let end = i + 1
      while (end < script.length && script.charCodeAt(end) !== c) end += c === 34 && script.charCodeAt(end) === 92 ? 2 : 1
      const quote = script[i]!
      out += script.slice(from, i) + quote + "_".repeat(Math.min(end, script.length) - i - 1) + (end < script.length ? quote : "")
      i = end
      from = i + 1
    }
  }
  return from < script.length ? out + script.slice(from) : out
}

function firstMatch(text: string, lists: [RegExp, string][][], unquotedLists: [RegExp, string][][], words: WordCheck[]): string | undefined {
  // the shell joins continued lines before it reads anything (`a[0]\⏎=./x` is `a[0]=./x`); inside single
  // quotes it does not, where joining only makes the tests stricter
  const script = text.includes("\\\n") ? text.replace(/\\\n/g, "") : text
  for (const list of lists) for (const [re, what] of list) if (re.test(script)) return what
  const facts = wordFacts(script)
  // quoted text that eval or a trap runs, and a command substitution inside double quotes, are code in
  // that shell too: then the whole text is tested; comments and here-document bodies are not read for
  // quotes (an apostrophe there would hide the code up to the next one)
  const unquoted = unquotedText(codeOnly(script))
  const bare = facts.evalText || EVAL.test(unquoted) || script.includes("$(") || script.includes("`") ? script : unquoted
  for (const list of unquotedLists) for (const [re, what] of list) if (re.test(bare)) return what
  // on the quote-removed words: how a name or glob is quoted does not change what that shell runs
  for (const [fact, what] of words) if (facts[fact]) return what
  return undefined
}

/** Why `program` runs `script` otherwise than bash's reading of it (with the level that asks for it);
 *  undefined when they agree. `posix`: bash started in posix mode (--posix, -o posix). */
export function foreignGrammar(program: string, script: string, posix = false): { level: "medium" | "high"; reason: string } | undefined {
  if (program === "bash" || program === "rbash") {
    const what = posix ? firstMatch(script, [POSIX_MODE], [POSIX_MODE_UNQUOTED], WORDS_POSIX_MODE) : undefined
    return what ? { level: "high", reason: `${program} in posix mode reads ${what}: what it runs is not what was checked` } : undefined
  }
  if (POSIX.has(program)) {
    const what = firstMatch(script, [BASH_ONLY, POSIX_MODE], [BASH_ONLY_UNQUOTED, POSIX_MODE_UNQUOTED], WORDS_POSIX)
    return what ? { level: "high", reason: `${program} reads ${what} in its own grammar, not bash's: what it runs is not what was checked` } : undefined
  }
  // zsh, ksh, mksh, yash, fish, csh, tcsh: plain commands mean the same there, but they expand aliases in
  // scripts and keep assignments before special builtins; beyond plain commands zsh's `${(e)x}` and glob
  // qualifiers, ksh's `${ cmd; }`, fish's `(cmd)` run code (high: ci must not run them)
  const what = firstMatch(script, [], [POSIX_MODE_UNQUOTED, [DOT_GLOB]], WORDS_OTHER)
  if (what) return { level: "high", reason: `${program} reads ${what} in its own grammar, not bash's: what it runs is not what was checked` }
  if (isPlainCommand(script) || splitSimpleList(script) !== undefined) return undefined
  return { level: "high", reason: `${program} reads its script in its own grammar, not bash's: only plain commands are checked the way it runs them` }
}
