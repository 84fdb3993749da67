// Shells and programs that run a script or program they are given: `sh -c SCRIPT`, `sh FILE`, a shell
// reading a heredoc or a pipe, `rg --pre PROG`, `tar --to-command=..`. The script is analysed too. Pure.
import type { Construct } from "./types.ts"
import { literalWord, type Word } from "./word.ts"
import type { Expander, Part, ShellStart } from "./part.ts"
import { environment } from "./part.ts"
import { byName } from "./options.ts"
import { foreignGrammar } from "./grammars.ts"
import { GLOB_ALIAS_REASON, HISTORY_REASON, historyOptions, KEYWORD_REASON, LASTPIPE_REASON } from "./shelloptions.ts"

export const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "posh", "fish", "csh", "tcsh", "rbash"])

/** sh -c SCRIPT, sh FILE, or sh reading its script from stdin (a heredoc, a here-string, a pipe). */
export function shell(part: Part, ex: Expander): void {
  ex.out.push(part)
  let cmdMode = false
  let stdinMode = false
  let script: Word | undefined
  let cdableVars = false
  let braces: false | "unknown" | undefined
  // --posix, -o posix, POSIXLY_CORRECT set before it: bash reads the script in posix mode
  let posix = part.assignments.some((a) => a.name === "POSIXLY_CORRECT")
  let namedInteractive = false
  let i = 1
  for (; i < part.words.length; i++) {
    const v = part.words[i]!.value
    if (v === undefined) break
    if (v === "--") {
      i++
      break
    }
    if (v.startsWith("--command")) {
      cmdMode = true
      script = v.includes("=") ? literalWord(v.slice(v.indexOf("=") + 1)) : part.words[++i]
      break
    }
    if (v === "--rcfile" || v === "--init-file") {
      i++
      continue
    }
    if (v === "--posix") posix = true
    // zsh's `--interactive` (zsh spells any option long; case and `_` do not count)
    if (v.startsWith("--") && optionName(v.slice(2)) === "interactive") namedInteractive = true
    if (v.startsWith("--")) continue
    if (!/^[-+][A-Za-z]+$/.test(v)) break
    if (v.includes("c")) cmdMode = true
    if (v.startsWith("-") && v.includes("s")) stdinMode = true
    // `-O cdable_vars` (or a name not known statically): cd may go to a variable's value
    if (v.startsWith("-") && v.includes("O")) {
      const option = part.words[i + 1]?.value
      if (option === undefined || option === "cdable_vars") cdableVars = true
    }
    // `-k`, `-o keyword`, `-O lastpipe` (or a name not known statically) change what the script's commands mean
    const named = part.words[i + 1]?.value
    if (v.startsWith("-") && (v.includes("k") || (v.includes("o") && (named === undefined || named === "keyword")))) part.findings.push({ name: "shell-option", level: "high", reason: KEYWORD_REASON })
    if (v.startsWith("-") && v.includes("O") && (named === undefined || named === "lastpipe")) part.findings.push({ name: "shell-option", level: "high", reason: LASTPIPE_REASON })
    if (v.startsWith("-") && v.includes("o") && (named === undefined || named === "posix")) posix = true
    // `-o interactive` (dash, zsh, ksh: the long spelling of -i, in a bundle too: `-eo interactive`)
    if (v.startsWith("-") && v.includes("o") && (named === undefined || optionName(named) === "interactive")) namedInteractive = true
    // `-O expand_aliases`, `-O xpg_echo`, `+O globskipdots`: aliases are expanded, echo decodes escapes, `.*` matches `..`
    if (v.includes("O") && (named === undefined || (v.startsWith("-") ? named === "expand_aliases" || named === "xpg_echo" : named === "globskipdots"))) part.findings.push({ name: "shell-option", level: "high", reason: GLOB_ALIAS_REASON })
    // `+B`, `+o braceexpand`: the script's words are not brace-expanded (the last setting holds)
    if (v.includes("B")) braces = v.startsWith("+") ? false : undefined
    if (v.includes("o") && named === "braceexpand") braces = v.startsWith("+") ? false : undefined
    else if (v.includes("o") && named === undefined && i + 1 < part.words.length) braces = "unknown"
    if (/[oO]/.test(v)) i++
  }
  if (cmdMode && !script) script = part.words[i]
  // -H / -o histexpand, or an interactive shell reading its script from stdin (history expansion is on there)
  const options = part.words.slice(1, i)
  const interactive = namedInteractive || options.some((o) => o.value !== undefined && /^-[A-Za-z]*i/.test(o.value) && !o.value.startsWith("--"))
  if (historyOptions(options)) part.findings.push({ name: "shell-option", level: "high", reason: HISTORY_REASON })
  else if (interactive && !cmdMode) part.findings.push({ name: "shell-option", level: "high", reason: `an interactive ${part.program} -i reads its script with history expansion on: a \`!$\` stands for words of earlier lines, which is not followed` })
  // `bash -ic SCRIPT`: an interactive shell first runs its start-up file (~/.bashrc, --rcfile FILE) and
  // expands the aliases it defines in the script: code that is not shown here runs, and may rename commands
  if (interactive && (cmdMode || namedInteractive)) part.findings.push({ name: "shell-option", level: "high", reason: `an interactive ${part.program} ${namedInteractive ? "-o interactive" : "-i"} runs its start-up file (~/.bashrc, ~/.zshrc, $ENV, --rcfile) before the script and expands its aliases: code not shown here runs` })
  const run = runner(part, ex, { cdableVars, ...(braces === undefined ? {} : { braces }) }, posix)
  if (cmdMode) {
    part.findings.push({ name: "shell-c", level: "low", reason: `${part.program} -c runs the script checked below` })
    if (script) run(script, "shell_c")
    // `xargs sh -c`: the script is the first argument xargs adds at run time
    else if (part.appended) part.unresolved = `${part.program} -c runs a script filled in at run time`
    return
  }
  const file = stdinMode ? undefined : part.words[i]
  if (file) {
    if (file.procsub) part.unresolved = `${part.program} runs a script a command produces`
    else if (file.value === undefined) part.unresolved = `the script ${part.program} runs is not static`
    else part.findings.push({ name: "shell-script", level: "medium", reason: `runs the script ${file.value}` })
    return
  }
  fromStdin(part, run)
}

const optionName = (name: string) => name.toLowerCase().replace(/_/g, "")

function runner(part: Part, ex: Expander, start: ShellStart = {}, posix = false): (body: Word, context: Construct) => void {
  return (body, context) => {
    if (body.value === undefined || body.hollow || body.placeholder) part.unresolved = `the script ${part.program} runs is not static`
    else {
      // at and batch hand their script to /bin/sh
      const foreign = foreignGrammar(SHELLS.has(part.program) ? part.program : "sh", body.value, posix)
      if (foreign) part.findings.push({ name: "shell-grammar", ...foreign })
      ex.out.push(...ex.nested(body, { context: [...part.context, context], cwd: part.cwd, loader: part.loader, exported: environment(part), ...start }))
    }
  }
}

/** A program that reads a shell script from its stdin (`at`, `batch`): the heredoc or pipe it reads. */
export function scriptFromStdin(part: Part, ex: Expander): void {
  fromStdin(part, runner(part, ex))
}

function fromStdin(part: Part, run: (body: Word, context: Construct) => void): void {
  const stdin = part.stdin
  if (!stdin) {
    part.findings.push({ name: "shell-interactive", level: "medium", reason: `starts an interactive ${part.program}` })
    return
  }
  if (stdin.kind === "heredoc" || stdin.kind === "herestring") {
    part.findings.push({ name: "shell-c", level: "low", reason: `${part.program} runs the script checked below` })
    run(stdin.body, "heredoc")
  } else if (stdin.kind === "file") {
    if (stdin.target.procsub || stdin.target.value === undefined) part.unresolved = `${part.program} reads its script from a command`
    else part.findings.push({ name: "shell-script", level: "medium", reason: `runs the script ${stdin.target.value}` })
  } else if (stdin.kind === "pipe" && stdin.script) {
    part.findings.push({ name: "shell-c", level: "low", reason: `${part.program} runs the script checked below` })
    run(stdin.script, "heredoc")
  } else if (stdin.kind === "pipe") {
    part.unresolved = `${part.program} runs whatever ${stdin.from.join(" | ") || "the pipe"} prints`
    if (stdin.from.some((f) => /^(\S*\/)?(curl|wget|fetch|http|xh|aria2c)\b/.test(f))) {
      part.findings.push({ name: "curl-pipe-shell", level: "critical", reason: "pipes a download into a shell" })
    }
  }
}

// Options whose value is a program the command runs: the program is a part of its own.
// `valued`: every short letter that takes a value, so a bundle is read as getopt reads it (`tar -xvI CMD`,
// `rsync -avze CMD`: the first such letter takes the rest of the word or the next one)
export const PROGRAM_OPTIONS = byName<{ short?: string; valued?: string; long: string[] }>({
  rg: { long: ["pre"] },
  sort: { long: ["compress-program"] },
  // split --filter=CMD hands each piece to `$SHELL -c CMD`
  split: { long: ["filter"] },
  tar: { short: "IF", valued: "bCfFgHIKLNTVX", long: ["to-command", "use-compress-program", "info-script", "new-volume-script", "rsh-command"] },
  man: { short: "PH", valued: "CEHLMmPRSs", long: ["pager", "html"] },
  zip: { long: ["unzip-command"] },
  cpio: { long: ["rsh-command"] },
  mt: { long: ["rsh-command"] },
  rsync: { short: "e", valued: "BefMT", long: ["rsh", "rsync-path"] },
  scp: { short: "S", valued: "cDFiJlooPSX", long: [] },
})

// Options may follow operands (`rg TODO --pre x`), so every word is looked at.
export function programOptions(part: Part, ex: Expander, spec: { short?: string; valued?: string; long: string[] }): boolean {
  ex.out.push(part)
  const programs: (string | undefined)[] = []
  const words = part.words
  for (let i = 1; i < words.length; i++) {
    const v = words[i]!.value ?? ""
    if (v === "--") break
    // zip -TT CMD (also -TT=CMD, -TTCMD, bundled -qTT): the short spelling of --unzip-command
    const tt = part.program === "zip" && /^-[^-]/.test(v) ? v.indexOf("TT") : -1
    if (tt > 0) {
      const rest = v.slice(tt + 2).replace(/^=/, "")
      programs.push(rest ? rest : words[++i]?.value)
      continue
    }
    const long = /^--([a-z-]+)(=(.*))?$/s.exec(v)
    // getopt_long takes unique prefixes (`--compress` = `--compress-program`); a prefix counts here
    if (long && spec.long.some((n) => n.startsWith(long[1]!))) programs.push(long[2] ? long[3] : words[++i]?.value)
    else if (/^-[A-Za-z]/.test(v) && !v.startsWith("--")) {
      const valued = spec.valued ?? spec.short ?? ""
      // the first letter that takes a value, counted in code points as a spread of the word would
      let at = 0
      let k = 0
      for (const c of v.slice(1)) {
        k++
        if (valued.includes(c)) {
          at = k
          break
        }
      }
      if (at > 0 && (spec.short ?? "").includes(v[at]!)) programs.push(at + 1 < v.length ? v.slice(at + 1) : words[++i]?.value)
    }
    else if (part.program === "tar" && v.startsWith("--checkpoint-action=exec=")) programs.push(v.slice(25))
  }
  for (const p of programs) {
    if (p === undefined) {
      part.unresolved = `the program ${part.program} runs is not static`
      continue
    }
    part.findings.push({ name: "program-option", level: "high", reason: `${part.program} runs the program ${p}` })
    ex.out.push(...ex.nested(literalWord(p), { context: [...part.context, "shell_c"], cwd: part.cwd, loader: part.loader, exported: environment(part) }))
  }
  return true
}
