// From a simple command to the parts rules see: transparent wrappers (timeout, env, nice, ...) removed,
// programs that run programs (sudo, xargs, find -exec, ssh, sh -c, eval, ...) split into themselves and
// what they run, scripts inside them analysed. Pure.
import type { RawCommand } from "./raw.ts"
import { isLoaderVar } from "./scope.ts"
import { looksSecretName } from "../base/secretname.ts"
import { secretVariableFinding } from "./secretvars.ts"
import { byName, scanOptions, type OptionSpec, type Scanned } from "./options.ts"
import { readGit } from "./git.ts"
import { literalWord, type Word } from "./word.ts"
import { changeDir } from "./cwd.ts"
import { runner, runnerNames } from "./runners.ts"
import { openFds, type FdTable } from "./fds.ts"
import { unknownRunner } from "./unknownrunner.ts"
import { busyboxInstall, pipedOutput, wrapperOptions } from "./wrapperopts.ts"
import { cmakeCommand } from "./cmakecmd.ts"
import { bunRunsProgram } from "./pkgrun.ts"
import { basename, environment, inner, newPart, splitArgs, type Expander, type Part } from "./part.ts"

export type { Expander, NestedScript, Part } from "./part.ts"

/** Expands one command into ex.out; returns the descriptors it leaves open (an `exec` keeps them). */
export function expandCommand(raw: RawCommand, ex: Expander): FdTable | undefined {
  const loader = raw.assignments.length ? [...raw.loader, ...raw.assignments.filter((a) => isLoaderVar(a.name)).map((a) => a.name)] : raw.loader
  // /dev/fd/N and its spellings seen through the descriptors the command's redirects open
  const opened = openFds(raw.redirects, raw.words, ex.home, ex.fds, raw.stdin?.kind === "pipe")
  const part = newPart(raw.text, opened?.words ?? raw.words, raw.assignments, opened?.redirects ?? raw.redirects, raw.context, raw.cwd, loader, raw.exported)
  if (opened?.findings.length) part.findings.push(...opened.findings)
  if (raw.stdin) part.stdin = raw.stdin
  if (raw.forkBomb) part.forkBomb = true
  const outer = ex.fds
  if (opened) ex.fds = opened.table
  try {
    unwrap(part, ex)
  } finally {
    ex.fds = outer
  }
  return opened?.table
}

// Wrappers that only change how the command runs; the wrapped command is the part rules must match.
const TRANSPARENT = byName<OptionSpec>({
  timeout: { valued: "sk", long: ["signal", "kill-after"], positional: 1 },
  nice: { valued: "n", long: ["adjustment"] },
  ionice: { valued: "cnp", long: ["class", "classdata", "pid", "pgid", "uid"] },
  nohup: {},
  time: { valued: "fo", long: ["format", "output"] },
  command: {},
  builtin: {},
  exec: { valued: "a" },
  stdbuf: { valued: "ioe", long: ["input", "output", "error"] },
  coproc: {},
  setsid: {},
  unbuffer: {},
  chronic: {},
  fakeroot: { valued: "lsib", long: ["lib", "faked"] },
  proxychains: { valued: "f" },
  proxychains4: { valued: "f" },
  torsocks: { valued: "uapP", long: ["user", "pass", "address", "port"] },
  "dbus-run-session": { long: ["config-file", "dbus-daemon"] },
  caffeinate: { valued: "tw" },
  strace: { valued: "abeEIoOpPsSuUX", long: ["output", "attach", "expr", "user", "trace", "env", "signal", "status", "trace-path", "string-limit", "columns", "decode-fds", "inject", "fault", "read", "write", "abbrev", "verbose", "raw", "quiet", "summary-sort-by", "syscall-limit", "const-print-style", "decode-pids", "detach-on", "interruptible", "kvm", "summary-columns", "summary-syscall-overhead", "trace-fds"] },
  ltrace: { valued: "aADeFlnopsuwx", long: ["output", "library", "config", "indent", "align"] },
  taskset: { valued: "", positional: 1 },
  // util-linux: a scheduling policy or a personality for the command, nothing else
  chrt: { valued: "TPD", long: ["sched-runtime", "sched-period", "sched-deadline"], positional: 1 },
  setarch: { positional: 1 },
  linux32: {},
  linux64: {},
  busybox: {},
})

const OUTPUT_OF = new Set(["time", "strace", "ltrace"])

// `exec -a NAME PROG`: PROG runs with NAME as its argv[0]. Multi-call programs (vim as ex, xz as unxz,
// shells) dispatch on their name: the words after PROG are not what the walk reads them as.
// A leading `-` (a login shell) keeps the program's own name.
function execName(part: Part, name: Word | undefined, program: Word): void {
  // git and busybox are judged as what they run under that name (execOptions)
  if (!name || program.value === undefined || ["git", "busybox"].includes(basename(program.value))) return
  const as = name.value?.replace(/^-/, "")
  if (as !== undefined && basename(as) === basename(program.value)) return
  part.findings.push({ name: "argv0", level: "high", reason: `exec -a runs ${program.value ?? "a program"} under the name ${name.value ?? "known only at run time"}: multi-call programs (vim as ex, xz as unxz, shells) choose what to do by their name` })
}
const SETARCH: OptionSpec = {}

// every program this file and runners.ts unwrap, for unknownrunner.ts (read once, when first needed)
const wrapperNames = (): string[] => [...TRANSPARENT.keys(), "env", "git", ...runnerNames()]

/** Remove transparent wrappers one by one, then hand the command to whatever runs it. */
function unwrap(part: Part, ex: Expander): void {
  for (let guard = 0; guard < 32; guard++) {
    const head = part.words[0]
    if (!head) return
    if (head.value === undefined || head.expanded || head.glob || head.braced || head.placeholder) {
      part.program = head.text
      part.unresolved = head.placeholder ? "the command name is filled in at run time" : "the command name is not static"
      ex.out.push(part)
      return
    }
    const name = basename(head.value)
    if (head.value.includes("/")) part.programPath = head.value
    else part.programPath = undefined
    part.program = name
    if (name === "env") {
      if (!unwrapEnv(part, ex)) return
      continue
    }
    if (name === "cmake" && part.words[1]?.value === "-E") {
      if (!cmakeCommand(part)) break
      continue
    }
    if (name === "bun" && bunRunsProgram(part, (n) => n === "env" || TRANSPARENT.has(n) || runnerNames().includes(n), ex.home)) continue
    const spec = TRANSPARENT.get(name)
    if (!spec || !transparentRuns(part, name, spec)) break
    if (name === "busybox" && busyboxInstall(part)) break
    // setarch ARCH [options] PROGRAM: its options follow the architecture
    const scan = name === "setarch" ? scanOptions(part.words, 2, SETARCH) : scanOptions(part.words, 1, spec)
    if (name === "setarch" && (part.words[1]?.value ?? "-").startsWith("-")) break
    // strace/ltrace -p PID attach to a running process with or without a command of their own
    if (name === "strace" || name === "ltrace") wrapperOptions(name, part, part.words.slice(1, scan.command), ex)
    if (name === "exec") execOptions(part, scan)
    if (scan.command >= part.words.length) break
    if (name === "exec") execName(part, scan.valueWords.get("a"), part.words[scan.command]!)
    // time/strace/ltrace -o FILE write FILE around the command they run
    const out = OUTPUT_OF.has(name) ? (scan.valueWords.get("o") ?? scan.valueWords.get("output")) : undefined
    if (out && !(name === "strace" && out.value !== undefined && pipedOutput(out.value))) part.writes = [...(part.writes ?? []), out]
    if (name === "fakeroot" || name === "dbus-run-session") wrapperOptions(name, part, part.words.slice(1, scan.command), ex)
    part.wrappers = [...part.wrappers, name]
    part.words = part.words.slice(scan.command)
  }
  const head = part.words[0]
  if (head?.value) {
    part.program = basename(head.value)
    if (head.value.includes("/")) part.programPath = head.value
  }
  // `git-push`, `/usr/lib/git-core/git-send-pack`: git's dashed forms are `git push`, `git send-pack`
  if (part.program.startsWith("git-") && part.program.length > 4 && part.program !== "git-lfs") {
    const sub = part.program.slice(4)
    part.words = [{ ...part.words[0]!, value: "git", text: "git" }, literalWord(sub), ...part.words.slice(1)]
    part.program = "git"
  }
  if (part.program === "git") {
    const view = readGit(part.words)
    part.git = view
    part.findings.push(...view.findings)
    if (view.unresolved) part.unresolved = view.unresolved
    part.words = [part.words[0]!, ...part.words.slice(view.sub)]
    ex.out.push(part)
    for (const p of view.programs) ex.out.push(...ex.nested(literalWord(p), { context: [...part.context, "shell_c"], cwd: part.cwd, loader: part.loader, exported: environment(part) }))
    if (view.argv) unwrap(inner(part, view.argv, "eval"), ex)
    return
  }
  if (runner(part, ex, unwrap)) return
  ex.out.push(part)
  if (part.words.length > 1 && !TRANSPARENT.has(part.program) && part.program !== "env") unknownRunner(part, ex, unwrap, wrapperNames)
}

// `command -v x` and `exec` with no command do not run anything; `chrt -p PRIO PID` and `chrt -m` change
// or show another process, they run no command
function transparentRuns(part: Part, name: string, spec: OptionSpec): boolean {
  if (name !== "command" && name !== "chrt") return true
  const scan = scanOptions(part.words, 1, spec)
  if (name === "chrt") return !["p", "pid", "m", "max", "h", "help", "V", "version"].some((f) => scan.flags.has(f))
  return !(scan.flags.has("v") || scan.flags.has("V"))
}

// $HOME as the env process sees it: a `HOME=..` before env or an export in the script wins
function homeOf(part: Part, home: string): string | undefined {
  const given = part.assignments.findLast((a) => a.name === "HOME")
  if (given) return given.value.value
  return part.exported?.has("HOME") ? part.exported.get("HOME") : home
}

// env -i / - / --ignore-environment (everything), -u NAME / --unset=NAME of a variable that changes what runs
function envRemoves(options: Word[]): string | undefined {
  for (let i = 0; i < options.length; i++) {
    const a = options[i]!.value
    if (a === undefined) return `${options[i]!.text} (an option known only at run time)`
    // the value of -C DIR, -S STRING, -a NAME (and their long forms) is not an option
    if (/^-[a-zA-Z0-9]*[CSa]$/.test(a) && !/^-[a-zA-Z0-9]*[iu]/.test(a) || ["--chdir", "--split-string", "--argv0"].some((n) => a.length >= 4 && n.startsWith(a))) {
      i++
      continue
    }
    if (a === "-" || (a.length >= 4 && "--ignore-environment".startsWith(a)) || /^-[a-zA-Z0-9]*i/.test(a) && !a.startsWith("--") && !/^-[a-zA-Z0-9]*[uCSa]/.test(a.slice(0, a.indexOf("i")))) return `${a} (an empty environment: no PATH)`
    const name = a === "-u" || (a.length >= 4 && "--unset".startsWith(a)) ? options[++i]?.value : a.startsWith("--unset=") ? a.slice(8) : /^-u./.test(a) ? a.slice(2) : undefined
    if (name !== undefined && isLoaderVar(name)) return `unsets ${name}`
  }
  return undefined
}

/** env [-i] [-u NAME] [-C DIR] [-S STRING] [NAME=VALUE]... [COMMAND]: transparent unless it loads code. */
function unwrapEnv(part: Part, ex: Expander): boolean {
  const scan = scanOptions(part.words, 1, { valued: "uCSa", long: ["unset", "chdir", "split-string", "argv0"] })
  const removed = envRemoves(part.words.slice(1, scan.command))
  if (removed) part.findings.push({ name: "loader-env", level: "high", reason: `env ${removed}: the command starts without it, and with no PATH bash looks for programs in the current directory` })
  let words = part.words.slice(scan.command)
  const split = scan.values.get("S") ?? scan.values.get("split-string")
  if (scan.flags.has("S") || scan.flags.has("split-string")) {
    if (split === undefined) {
      part.unresolved = "env -S string is not static"
      ex.out.push(part)
      return false
    }
    words = [...splitArgs(split, homeOf(part, ex.home)), ...words]
    // env replaces `${NAME}` with the variable's value: a secret one reaches the command's arguments
    for (const m of split.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
      if (looksSecretName(m[1]!) && !part.exported?.has(m[1]!) && !part.assignments.some((a) => a.name === m[1])) part.findings.push(secretVariableFinding(m[1]!))
    }
  }
  const assignments = [...part.assignments]
  while (words[0]?.value !== undefined && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0].value)) {
    const v = words[0].value
    const eq = v.indexOf("=")
    assignments.push({ name: v.slice(0, eq), value: literalWord(v.slice(eq + 1)) })
    if (isLoaderVar(v.slice(0, eq))) part.loader = [...part.loader, v.slice(0, eq)]
    words = words.slice(1)
  }
  // the word itself (`env -C ~` is the home directory; `env -C "$(..)"` an unknown one), not its bare value
  const dir = scan.valueWords.get("C") ?? scan.valueWords.get("chdir")
  if (dir !== undefined || scan.flags.has("C") || scan.flags.has("chdir")) part.cwd = dir ? changeDir(part.cwd, [dir], ex.home) : null
  if (!words.length) {
    part.program = "env"
    ex.out.push(part)
    return false
  }
  part.assignments = assignments
  part.wrappers = [...part.wrappers, "env"]
  part.words = words
  return true
}

// `exec -c` runs the command with an empty environment: a shell started so has no PATH. `exec -a NAME`
// gives the program NAME as argv[0], which git (`git-remote` runs `git remote`) and busybox (an applet)
// dispatch on: the command is judged as what it then runs.
function execOptions(part: Part, scan: Scanned): void {
  if (scan.flags.has("c")) part.findings.push({ name: "loader-env", level: "high", reason: "exec -c (an empty environment: no PATH): the command starts without it, and with no PATH bash looks for programs in the current directory" })
  const program = part.words[scan.command]
  if (!scan.flags.has("a") || program?.value === undefined) return
  const multi = basename(program.value)
  if (multi !== "git" && multi !== "busybox") return
  const argv0 = scan.valueWords.get("a")
  if (argv0?.value === undefined) {
    part.findings.push({ name: "program-option", level: "medium", reason: `exec -a ${argv0?.text ?? ""}: ${multi} runs as a name not known before it runs, which it dispatches on` })
    return
  }
  const as = basename(argv0.value)
  if (multi === "busybox" || as.startsWith("git-")) part.words[scan.command] = { ...literalWord(as), text: `${as} (exec -a ${argv0.text} ${program.text})` }
}
