// A build or test run (make, gcc, go, cargo, pytest, tsc, npm test, ...) is low only while it runs the
// workspace's own code and writes the workspace's own outputs. Its options are too many, and too tool
// specific, to list one by one (make -sf, gcc -B, -fplugin=, @argfile, pytest -c, jest --config, go build
// -o, rustc -C linker=): so every argument is read for what it could point at, whatever the option.
// - a path (whole word, the value after `=`, after a short option's letter, after `@`, or a comma piece)
//   that leaves the workspace, a URL, or a word not known before it runs: high, the tool runs or
//   writes what is there;
// - an output option's value is a file the build writes: the path rules judge it (rc files, protected
//   paths);
// - `NAME=VALUE` operands and variables set for the build (`CC=.. make`, `env RUSTFLAGS=.. cargo`):
//   make and friends take them as configuration that names the programs they run: high;
// - a compiler driver's -wrapper runs a program around every compiler step: high. Pure.
import type { Finding } from "./raw.ts"
import type { View } from "./table.ts"
import type { Word } from "./word.ts"
import { isInside } from "../base/paths.ts"
import { resolveWord } from "./cwd.ts"
import { writeVerdict } from "./paths.ts"
import { riskRank } from "../base/risk.ts"
import { pythonCommand } from "./pyopts.ts"

const URL = /^[a-z][a-z0-9+.-]*:\/\//i
// where an argument may point outside the workspace without reaching code or files that matter
const HARMLESS_PATHS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin"])
// variables that only tune output or select among the workspace's own targets
const HARMLESS_VARS = new Set([
  "CI", "NODE_ENV", "RUST_BACKTRACE", "RUST_LOG", "DEBUG", "FORCE_COLOR", "NO_COLOR", "TERM", "TZ", "LANG", "LANGUAGE",
  "COLUMNS", "GOOS", "GOARCH", "CGO_ENABLED", "VERBOSE", "V", "PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED",
])
// options whose value is a file or directory the build writes
const OUTPUT = /^(-o|--?out(put)?([-_]?(file|dir|path))?|--?outdir|--?outfile|--target-dir|--?declarationDir|--build-dir|--?d)$/i
const COMPILER_DRIVERS = new Set(["gcc", "g++", "clang", "clang++", "cc", "c++", "zig", "swiftc"])

/** The strings in an argument that could be paths: each space- or comma-separated piece, a value after
 *  `=`, after `-X`, after `@`, after `TYPE:` (`-p /x`, `-Wl,-rpath,/x`, `addopts=-p /x`, `-B/x`, `@/x`,
 *  `xml:/x`), and values the tool expands itself (`$HOME/x`). */
export function pathCandidates(s: string): string[] {
  // a plain name (`test`, `build`, `lint`): nothing in it splits off or can be a path, URL or variable
  if (PLAIN_NAME.test(s)) return []
  const out: string[] = []
  const todo = [s]
  while (todo.length) {
    const c = todo.pop()!
    if (out.includes(c)) continue
    out.push(c)
    const pieces = c.split(/[\s,]+/).filter(Boolean)
    if (pieces.length > 1) todo.push(...pieces)
    if (c.startsWith("-") && !c.startsWith("--") && c.length > 2) todo.push(c.slice(2))
    if (c.startsWith("@")) todo.push(c.slice(1))
    const eq = c.indexOf("=")
    if (eq >= 0) todo.push(c.slice(eq + 1))
    // TYPE:PATH (pytest-cov --cov-report=xml:/x, html:DIR): the path after the type
    const typed = /^[a-z][a-z0-9-]*:([^/].*|\/[^/].*)?$/i.exec(c)
    if (typed?.[1] && !URL.test(c)) todo.push(typed[1])
  }
  return out.filter((c) => URL.test(c) || EXPANDED.test(c) || c.startsWith("/") || c.startsWith("~") || c === ".." || c.startsWith("../") || c.includes("/.."))
}

const PLAIN_NAME = /^[A-Za-z0-9_]*$/

// a value a tool expands itself (pytest's cache_dir: expandvars + expanduser): where it points is not known here
const EXPANDED = /^\$\{?[A-Za-z_]/
// short options whose attached value is a NAME=VALUE setting (pytest -oKEY=VALUE = --override-ini)
const SHORT_SETTINGS: Record<string, string> = { pytest: "o", "py.test": "o" }

/** The NAME=VALUE a long option's attached value sets (`--override-ini=cache_dir=X`, any abbreviation),
 *  or a short one of SHORT_SETTINGS (`-ocache_dir=X`): the attached form of a build variable. */
function optionSetting(prog: string, s: string): string | undefined {
  const long = /^--[A-Za-z][\w-]*=([A-Za-z_][A-Za-z0-9_.-]*=.*)$/s.exec(s)
  if (long) return long[1]
  const letter = SHORT_SETTINGS[prog]
  if (letter && s.startsWith(`-${letter}`) && /^[A-Za-z_][A-Za-z0-9_.-]*=/.test(s.slice(2))) return s.slice(2)
  return undefined
}

/** Findings for a build/test command's arguments and environment. */
export function buildArguments(v: View, out: Finding[]): void {
  const prog = v.program
  // an output's value is judged as a write (a build may write to /tmp), not as code it runs
  let outputValue = -1
  for (let i = 0; i < v.args.length; i++) {
    const w = v.args[i]!
    if (w.value === undefined) {
      if (!w.placeholder) out.push(high(`${prog} ${w.text}: an argument not known before it runs could point the build anywhere`))
      continue
    }
    const s = w.value
    if (COMPILER_DRIVERS.has(prog) && /^-?-wrapper$/.test(s)) out.push(high(`${prog} ${s} runs a program around every compiler step`))
    if (!s.startsWith("-") && /^[A-Za-z_][A-Za-z0-9_.]*=/.test(s)) {
      out.push(high(`${prog} ${s.slice(0, s.indexOf("="))}=...: a build variable on the command line can name the programs it runs`))
    }
    const setting = optionSetting(prog, s)
    if (setting) out.push(high(`${prog} ${s.slice(0, s.length - setting.length)}${setting.slice(0, setting.indexOf("="))}=...: a configuration value on the command line can name the programs it runs`))
    const name = s.includes("=") ? s.slice(0, s.indexOf("=")) : s
    const output = OUTPUT.test(name) || (/^-o./.test(s) && !s.startsWith("--"))
    // an output may go to /tmp (not to a home that happens to lie below it); nothing else there is the workspace's
    const tmpOk = i === outputValue || output
    for (const c of pathCandidates(s)) {
      const where = EXPANDED.test(c) ? `${c} (a variable ${prog} may expand itself)` : outsidePath(v, w, c, tmpOk)
      if (where) out.push(high(`${prog} ${s}: points the build at ${where}, outside the workspace (code it runs or files it writes there)`))
    }
    if (OUTPUT.test(name)) {
      if (!s.includes("=")) outputValue = i + 1
      const target = s.includes("=") ? { ...w, value: s.slice(s.indexOf("=") + 1), text: s.slice(s.indexOf("=") + 1), tilde: false } : v.args[i + 1]
      if (target) outputFile(v, target, out)
    } else if (/^-o./.test(s) && !s.startsWith("--")) outputFile(v, { ...w, value: s.slice(2), text: s.slice(2), tilde: false }, out)
  }
  const vars = [...v.part.assignments.map((a) => a.name), ...(v.part.exported?.keys() ?? [])]
  const set = [...new Set(vars.filter((n) => !HARMLESS_VARS.has(n) && !n.startsWith("LC_")))]
  if (set.length) out.push(high(`sets ${set.join(", ")} for ${prog}: builds read their environment as configuration that names the programs they run`))
}

// runner commands that do not open the project (`npm help`, `cargo --version`)
const NO_PROJECT = new Set(["help", "--help", "-h", "--version", "-v", "-V", "view", "info", "doctor"])

/** A runner that finds its project by looking up from where it starts (npm test, pytest, cargo build):
 *  the project the disk has there must be the workspace's, not a folder above it (core/base/buildroot.ts). */
export function projectAbove(v: View, out: Finding[]): void {
  const look = v.place.projectAbove
  if (!look || v.part.cwd === null) return
  const program = v.program === "python" || v.program === "python3" ? pythonCommand(v.values).module : v.program
  if (!program || NO_PROJECT.has(v.sub ?? "")) return
  // tsc -p/--project/-b/--build names its project: buildArguments judges where
  if (program === "tsc" && v.values.some((a) => /^(-p|--project|-b|--build)(=|$)/.test(a))) return
  for (const dir of v.part.cwd) {
    const file = look(program, v.place.realpath ? v.place.realpath(dir) : dir, v.place.wroteBefore === true)
    if (!file) continue
    out.push({ name: "runs-outside-code", level: "high", reason: `${v.program} uses ${file}, found above the workspace: it runs that project's code (scripts, conftest.py, build.rs, config), which is not the workspace's` })
    return
  }
}

/** A build run in a folder outside the workspace (`cd DIR && make`, `env -C DIR make`, `(cd DIR; pytest)`)
 *  runs that folder's project code, as `make -C DIR` does. */
export function buildFolder(v: View, out: Finding[]): void {
  const outside = v.part.cwd?.find((dir) => !isInside(v.place.workspace, dir))
  if (outside) out.push(high(`${v.program} builds or tests in ${outside}, outside the workspace: it runs that project's code (Makefile, tests, build scripts)`))
}

function high(reason: string): Finding {
  return { name: "build-outside", level: "high", reason }
}

function outsidePath(v: View, w: Word, c: string, tmpOk: boolean): string | undefined {
  if (URL.test(c)) return c
  const paths = resolveWord({ ...w, value: c, text: c, tilde: c.startsWith("~"), glob: false }, v.part.cwd, v.place.home)
  if (paths === null) return c
  return paths.find((p) => !HARMLESS_PATHS.has(p) && !isInside(v.place.workspace, p) && !(tmpOk && v.place.tmp.some((t) => isInside(t, p)) && !isInside(v.place.home, p)))
}

/** A file the build writes: the path rules see it; a write worse than an ordinary workspace file is raised here. */
function outputFile(v: View, target: Word, out: Finding[]): void {
  v.writes.push(target)
  const verdict = writeVerdict(target, v.part.cwd, v.place)
  if (verdict && riskRank(verdict.level) > riskRank("medium")) out.push({ name: "write-files", level: verdict.level, reason: `${v.program} output: ${verdict.reason}` })
}

// names that are the compiler's standard input; `@` before one reads the options from it
const STDIN_NAMES = new Set(["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"])
// options whose separate value names an output, not an input (`-o -` writes to stdout)
const OUTPUT_VALUED = new Set(["-o", "-MF", "-MT", "-MQ"])

/** A compiler or preprocessor given source (or options) from stdin or a process substitution: text whose
 *  `#include "/any/file"` reads any file, where ccode cannot see it (cpp alone reads stdin). */
export function compilesStdin(v: View): boolean {
  let inputs = 0
  for (let i = 0; i < v.args.length; i++) {
    const w = v.args[i]!
    const s = w.value
    if (w.procsub || s === undefined) return true
    if (OUTPUT_VALUED.has(s)) {
      i++
      continue
    }
    if (STDIN_NAMES.has(s) || (s.startsWith("@") && STDIN_NAMES.has(s.slice(1)))) return true
    if (!s.startsWith("-")) inputs++
  }
  return v.program === "cpp" && inputs === 0
}
