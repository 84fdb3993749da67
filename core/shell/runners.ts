// Programs that run other programs: each is a part itself and what it runs is a part too (sudo, xargs,
// find -exec, watch, parallel, ssh), or a script analysed on its own (sh -c, eval, heredocs). Pure.
import type { Construct } from "./types.ts"
import { byName, scanOptions, type OptionSpec } from "./options.ts"
import { lazyOptions, readOptions } from "./getopt.ts"
import { isLoaderVar } from "./scope.ts"
import { literalWord, type Word } from "./word.ts"
import { inner, quoteText, environment, type Expander, type Part } from "./part.ts"
import { PROGRAM_OPTIONS, programOptions, scriptFromStdin, shell, SHELLS } from "./shells.ts"
import { foreignGrammar } from "./grammars.ts"
import { callbacks, enable, hash, jobsExec, sourced, trap } from "./hooks.ts"
import { textRunner } from "./textops.ts"

type Unwrap = (part: Part, ex: Expander) => void

/** Handle a part whose program runs other commands; false when the program is not one of them. */
export function runner(part: Part, ex: Expander, unwrap: Unwrap): boolean {
  const handle = RUNNERS.get(part.program)
  if (handle) {
    handle(part, ex, unwrap)
    return true
  }
  if (SHELLS.has(part.program)) {
    shell(part, ex)
    return true
  }
  const options = PROGRAM_OPTIONS.get(part.program)
  if (options) return programOptions(part, ex, options)
  return false
}

/** The programs handled here as runners of other programs. */
export function runnerNames(): string[] {
  return [...RUNNERS.keys(), ...SHELLS, ...PROGRAM_OPTIONS.keys()]
}

const PRIVILEGED = byName<OptionSpec>({
  sudo: {
    valued: "CDghpRrTtUu", long: ["close-from", "chdir", "group", "host", "prompt", "chroot", "role", "command-timeout", "type", "other-user", "user"],
    flags: ["askpass", "background", "bell", "preserve-env", "edit", "set-home", "help", "login", "remove-timestamp", "reset-timestamp", "list", "non-interactive", "preserve-groups", "stdin", "shell", "version", "validate"],
  },
  doas: { valued: "Cu" },
  pkexec: { long: ["user"] },
  runuser: { valued: "ugGs", long: ["user", "group", "supp-group", "shell", "command"] },
  chroot: { long: ["userspec", "groups"], positional: 1 },
  unshare: { valued: "S", long: ["setuid", "setgid", "map-user", "map-group", "propagation", "root", "wd"] },
  nsenter: { valued: "tSGwr", long: ["target", "setuid", "setgid", "wd", "root"] },
  "systemd-run": { valued: "pEu", long: ["property", "setenv", "unit", "description", "working-directory", "uid", "gid", "slice"] },
})

const RUNNERS = byName<(part: Part, ex: Expander, unwrap: Unwrap) => void>({
  ...Object.fromEntries([...PRIVILEGED.keys()].map((name) => [name, privileged])),
  su: su,
  sg: sg,
  ...Object.fromEntries(["sed", "awk", "gawk", "mawk", "nawk"].map((n) => [n, textRunner])),
  xargs: xargs,
  find: find,
  watch: watch,
  parallel: parallel,
  ssh: ssh,
  eval: evalCommand,
  source: source,
  ".": source,
  trap: trap,
  alias: alias,
  flock: flock,
  at: atJob,
  batch: atJob,
  script: scriptCommand,
  hash: hash,
  enable: enable,
  complete: callbacks,
  compgen: callbacks,
  mapfile: callbacks,
  readarray: callbacks,
  jobs: jobsExec,
})

function privileged(part: Part, ex: Expander, unwrap: Unwrap): void {
  ex.out.push(part)
  const scan = scanOptions(part.words, 1, PRIVILEGED.get(part.program)!)
  const script = scan.values.get("command") ?? (part.program === "runuser" ? scan.values.get("c") : undefined)
  if (script !== undefined) {
    ex.out.push(...ex.nested(literalWord(script), { context: [...part.context, "sudo"], cwd: part.cwd, loader: part.loader }))
    return
  }
  let words = part.words.slice(scan.command)
  if (!words.length || scan.flags.has("e") || scan.flags.has("edit")) return
  if (part.program === "sudo" && (scan.flags.has("s") || scan.flags.has("i") || scan.flags.has("shell") || scan.flags.has("login"))) {
    nestedFrom(part, ex, words, "sudo")
    return
  }
  const child = inner(part, words, "sudo")
  while (words[0]?.value !== undefined && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0].value)) {
    const v = words[0].value
    const name = v.slice(0, v.indexOf("="))
    child.assignments = [...child.assignments, { name, value: literalWord(v.slice(name.length + 1)) }]
    if (isLoaderVar(name)) child.loader = [...child.loader, name]
    words = words.slice(1)
  }
  child.words = words
  unwrap(child, ex)
}

function su(part: Part, ex: Expander): void {
  ex.out.push(part)
  const scan = scanOptions(part.words, 1, { valued: "cgGsw", long: ["command", "group", "supp-group", "shell", "whitelist-environment"] })
  const script = scan.values.get("c") ?? scan.values.get("command")
  if (script !== undefined) ex.out.push(...ex.nested(literalWord(script), { context: [...part.context, "sudo"], cwd: part.cwd, loader: part.loader }))
  else if (scan.flags.has("c") || scan.flags.has("command")) part.unresolved = "su -c command is not static"
}

/** `sg GROUP [-c] COMMAND...`: COMMAND runs through /bin/sh -c with GROUP as the group. */
function sg(part: Part, ex: Expander): void {
  ex.out.push(part)
  let words = part.words.slice(part.words[1]?.value === "-" ? 2 : 1)
  if (words.length < 2) return
  words = words.slice(1)
  if (words[0]?.value === "-c") words = words.slice(1)
  nestedFrom(part, ex, words, "sudo")
}

/** xargs runs its command with input items as arguments (or in place of -I's placeholder). */
function xargs(part: Part, ex: Expander, unwrap: Unwrap): void {
  ex.out.push(part)
  const args = part.words.slice(1)
  // GNU xargs reads its options with getopt_long: `--repl=Q` and `--re=Q` are `--replace=Q`
  const r = readOptions(args, XARGS())
  let placeholder: string | undefined
  for (const o of r.valued) {
    if (o.name !== "I" && o.name !== "i" && o.name !== "replace") continue
    if (o.value !== undefined && o.value.value === undefined) part.unresolved = `xargs ${o.written} ${o.value.text}: the placeholder is not static`
    placeholder = o.value === undefined ? (o.name === "I" ? undefined : "{}") : (o.value.value ?? o.value.text)
  }
  const words = r.operands.length ? args.slice(args.length - r.operands.length) : [literalWord("echo")]
  const child = inner(part, withPlaceholder(words, placeholder), "xargs")
  if (!placeholder) child.appended = true
  else child.appendedPlaceholder = placeholder
  // -a FILE (--arg-file): the items are FILE's lines, not the input's
  const argFile = r.valued.findLast((o) => o.name === "a" || o.name === "arg-file")
  if (part.stdin && (argFile === undefined || argFile.value?.value === "-")) child.appendedInput = part.stdin
  // -0 and -d split only at NULs or the delimiter, with no quote or backslash removal; otherwise (-I
  // too: it splits at newlines) xargs removes quotes and backslashes and splits at blanks or newlines
  const own = args.slice(0, args.length - r.operands.length)
  if (r.valued.some((o) => o.name === "d" || o.name === "delimiter")) child.appendedSplit = "delimiter"
  else if (own.some((w) => w.value === "--null" || /^-[^-]*0/.test(w.value ?? ""))) child.appendedSplit = "nul"
  // --process-slot-var=NAME sets NAME (to the slot number: 0, 1, ...) in the command's environment:
  // NAME=PATH makes execvp look in the workspace folder `0`
  for (const o of r.valued) {
    if (o.name !== "process-slot-var") continue
    const name = o.value?.value
    if (name === undefined) {
      part.unresolved = `xargs ${o.written} ${o.value?.text ?? ""}: the variable it sets is not static`
      continue
    }
    child.assignments = [...child.assignments, { name, value: literalWord("0") }]
    if (isLoaderVar(name)) child.loader = [...child.loader, name]
  }
  unwrap(child, ex)
}

const XARGS = lazyOptions({
  short: "0a:d:E:e::I:i::L:l::n:P:ps:trxo",
  long: "null arg-file= delimiter= eof? replace? max-lines? max-args= max-procs= max-chars= interactive no-run-if-empty open-tty process-slot-var= show-limits exit verbose help version",
  stopAtOperand: true,
})

function withPlaceholder(words: Word[], placeholder: string | undefined): Word[] {
  if (!placeholder) return words
  return words.map((w) => (w.text.includes(placeholder) ? { ...w, value: undefined, placeholder: true, hollow: true } : w))
}

/** find -exec/-execdir/-ok/-okdir CMD ... ; (or +): CMD runs once per file found. */
function find(part: Part, ex: Expander, unwrap: Unwrap): void {
  ex.out.push(part)
  const words = part.words
  for (let i = 1; i < words.length; i++) {
    const v = words[i]!.value
    if (v !== "-exec" && v !== "-execdir" && v !== "-ok" && v !== "-okdir") continue
    let end = i + 1
    while (end < words.length && words[end]!.value !== ";" && !(words[end]!.value === "+" && words[end - 1]!.value === "{}")) end++
    const cmd = withPlaceholder(words.slice(i + 1, end), "{}")
    if (cmd.length) {
      const child = inner(part, cmd, "find_exec")
      child.appended = true
      // -execdir/-okdir run CMD in the folder of each file found: a folder not known statically
      if (v === "-execdir" || v === "-okdir") child.cwd = null
      unwrap(child, ex)
    }
    i = end
  }
}

/** watch runs its arguments through `sh -c` (or as argv with -x) every few seconds. */
function watch(part: Part, ex: Expander, unwrap: Unwrap): void {
  ex.out.push(part)
  const scan = scanOptions(part.words, 1, { valued: "nq", long: ["interval", "equexit"], flags: ["beep", "color", "no-color", "differences", "errexit", "chgexit", "exec", "precise", "no-linewrap", "no-title", "no-wrap", "help", "version"] })
  const words = part.words.slice(scan.command)
  if (!words.length) return
  if (scan.flags.has("x") || scan.flags.has("exec")) unwrap(inner(part, words, "watch"), ex)
  else nestedFrom(part, ex, words, "watch", "sh")
}

const PARALLEL_LONG = [
  "jobs", "sshlogin", "arg-file", "delimiter", "colsep", "env", "tmpdir", "results", "joblog", "timeout", "delay", "memfree",
  "load", "workdir", "basefile", "return", "transferfile", "tagstring", "header", "max-args", "max-replace-args", "max-lines",
  "max-chars", "replace", "retries", "sshloginfile", "halt",
]

/** GNU parallel: a command template run through the shell, or commands given as arguments. */
function parallel(part: Part, ex: Expander): void {
  ex.out.push(part)
  const scan = scanOptions(part.words, 1, { valued: "jJSadIPnNLsEC", long: PARALLEL_LONG })
  const rest = part.words.slice(scan.command)
  const sep = rest.findIndex((w) => w.value !== undefined && /^::::?\+?$/.test(w.value))
  const template = sep < 0 ? rest : rest.slice(0, sep)
  const args = sep < 0 ? [] : rest.slice(sep + 1).filter((w) => !/^::::?\+?$/.test(w.value ?? ""))
  if (template.length) {
    if (template[0]!.text.includes("{")) {
      part.unresolved = "parallel's command name is filled in at run time"
      return
    }
    // each argument fills {} or is appended: analyse the commands it will really run
    if (sep < 0 || args.length > 16 || rest[sep]!.value !== ":::" || args.some((a) => a.value === undefined)) {
      const before = ex.out.length
      nestedFrom(part, ex, template, "parallel", "sh")
      for (const p of ex.out.slice(before)) p.appended = true
      return
    }
    for (const a of args) {
      const filled = template.some((t) => t.text.includes("{}"))
        ? template.map((t) => ({ ...t, value: t.value?.replaceAll("{}", a.value!) }))
        : [...template, { ...a, value: quoteText(a.value!) }]
      nestedFrom(part, ex, filled, "parallel", "sh")
    }
    return
  }
  if (sep < 0) {
    part.unresolved = "parallel reads the commands it runs from its input"
    return
  }
  for (const w of rest.slice(sep + 1)) {
    if (w.value !== undefined && /^::::?\+?$/.test(w.value)) continue
    nestedFrom(part, ex, [w], "parallel", "sh")
  }
}

const SSH_VALUED = "BbcDEeFIiJLlmOopQRSWw"
const SSH_PROGRAM_OPTIONS = /^(proxycommand|localcommand|knownhostscommand)=?(.*)$/i

/** ssh HOST CMD runs CMD in the remote user's shell; -o ProxyCommand=.. runs a local one. */
function ssh(part: Part, ex: Expander): void {
  ex.out.push(part)
  const first = scanOptions(part.words, 1, { valued: SSH_VALUED })
  const second = scanOptions(part.words, first.command + 1, { valued: SSH_VALUED })
  for (const scan of [first, second]) {
    const opt = scan.values.get("o")
    const m = opt === undefined ? null : SSH_PROGRAM_OPTIONS.exec(opt)
    if (m) {
      part.findings.push({ name: "ssh-local-command", level: "critical", reason: `ssh -o ${m[1]} runs a local program` })
      ex.out.push(...ex.nested(literalWord(m[2]!.trim()), { context: [...part.context, "shell_c"], cwd: part.cwd, loader: part.loader, exported: environment(part) }))
    }
  }
  const words = part.words.slice(second.command)
  if (!words.length) return
  if (words.some((w) => w.value === undefined)) {
    part.unresolved = "the remote command is not static"
    return
  }
  ex.out.push(...ex.nested(literalWord(words.map((w) => w.value).join(" ")), { context: [...part.context, "ssh"], cwd: null, loader: [], remote: true }))
}

function evalCommand(part: Part, ex: Expander): void {
  ex.out.push(part)
  nestedFrom(part, ex, part.words.slice(1), "eval")
}

function source(part: Part, ex: Expander): void {
  ex.out.push(part)
  const file = part.words[1]
  if (!file) return
  if (file.procsub) part.unresolved = "sources a script a command produces"
  else if (file.value === undefined) part.unresolved = "the sourced file is not static"
  else sourced(part, file.value, ex.workspace, ex.home)
}

function alias(part: Part, ex: Expander): void {
  ex.out.push(part)
  for (const w of part.words.slice(1)) {
    const eq = w.text.indexOf("=")
    if (eq <= 0) continue
    nestedFrom(part, ex, [{ ...w, value: w.value?.slice(w.value.indexOf("=") + 1) }], "eval")
  }
}

const FLOCK: OptionSpec = { valued: "wE", long: ["timeout", "conflict-exit-code"], positional: 1 }

function flock(part: Part, ex: Expander, unwrap: Unwrap): void {
  const c = part.words.findIndex((w, i) => i > 0 && (w.value === "-c" || w.value === "--command"))
  if (c > 0) {
    // `flock [options] FILE -c CMD`: FILE is created if missing, as in the other form
    const file = scanOptions(part.words.slice(0, c), 1, FLOCK).positionals[0]
    if (file) part.writes = [...(part.writes ?? []), file]
    ex.out.push(part)
    // flock -c, script -c and parallel run `$SHELL -c` (or /bin/sh): judged against the stricter sh
    nestedFrom(part, ex, part.words.slice(c + 1, c + 2), "shell_c", "sh")
    return
  }
  const scan = scanOptions(part.words, 1, FLOCK)
  if (scan.command >= part.words.length) {
    ex.out.push(part)
    return
  }
  part.wrappers = [...part.wrappers, "flock"]
  // the lock file is created if missing
  if (scan.positionals[0]) part.writes = [...(part.writes ?? []), scan.positionals[0]]
  part.words = part.words.slice(scan.command)
  unwrap(part, ex)
}

/** Words joined with spaces, as a shell would read them, analysed as a script. */
function nestedFrom(part: Part, ex: Expander, words: Word[], context: Construct, shell?: string): void {
  if (!words.length) return
  if (words.some((w) => w.value === undefined || w.hollow)) {
    part.unresolved = `the ${part.program} command is not static`
    return
  }
  const script = words.map((w) => w.value).join(" ")
  // a script run by /bin/sh (dash on Debian and Ubuntu), which reads some bash syntax otherwise
  const foreign = shell ? foreignGrammar(shell, script) : undefined
  if (foreign) part.findings.push({ name: "shell-grammar", ...foreign })
  ex.out.push(...ex.nested(literalWord(script), { context: [...part.context, context], cwd: part.cwd, loader: part.loader, exported: environment(part) }))
}

/** at/batch run the shell script they read from stdin (or -f FILE) later. */
function atJob(part: Part, ex: Expander): void {
  ex.out.push(part)
  const scan = scanOptions(part.words, 1, { valued: "fqtM" })
  if (scan.flags.has("l") || scan.flags.has("d") || scan.flags.has("r") || scan.flags.has("c")) return
  const file = scan.values.get("f")
  if (file !== undefined) part.findings.push({ name: "shell-script", level: "medium", reason: `schedules the script ${file}` })
  else scriptFromStdin(part, ex)
}

/** script -c CMD runs CMD in a shell while recording the terminal. */
function scriptCommand(part: Part, ex: Expander): void {
  ex.out.push(part)
  const scan = scanOptions(part.words, 1, { valued: "cEIOBTm", long: ["command", "echo", "log-in", "log-out", "log-io", "log-timing", "logging-format"] })
  const cmd = scan.values.get("c") ?? scan.values.get("command")
  // the typescript file (default ./typescript) and the -O/-I/-B/-T logs are written
  const logs = ["O", "I", "B", "T", "log-out", "log-in", "log-io", "log-timing"].map((n) => scan.valueWords.get(n)).filter((w) => w !== undefined)
  part.writes = [...(part.writes ?? []), part.words[scan.command] ?? literalWord("typescript"), ...logs]
  if (cmd !== undefined) nestedFrom(part, ex, [literalWord(cmd)], "shell_c", "sh")
  else if (scan.flags.has("c") || scan.flags.has("command")) part.unresolved = "script -c command is not static"
  else part.findings.push({ name: "shell-interactive", level: "medium", reason: "script starts an interactive shell" })
}
