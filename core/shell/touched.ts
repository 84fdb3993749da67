// The paths a part touches, for path rules and risk.paths: redirect targets, the operands of file
// commands (read or write by what the command does), and path-looking arguments of others. Pure.
import type { TouchedPath } from "./types.ts"
import type { Part } from "./part.ts"
import type { RawRedirect } from "./raw.ts"
import type { Cwd } from "./scope.ts"
import type { Word } from "./word.ts"
import { otherProcess, procPattern, resolveWord } from "./cwd.ts"
import { globCandidates } from "./globs.ts"
import { byName } from "./options.ts"
import { optionReads, patternGiven } from "./optionreads.ts"
import { hasWord, operands } from "./part.ts"
import { NET_PROGRAMS, netFiles } from "./netfiles.ts"
import { gitVerbose } from "./known-git.ts"

type Role = "read" | "write" | "last-write" | "first-skipped" | "none"

const ROLES = byName<Role>({
  rm: "write", rmdir: "write", unlink: "write", shred: "write", touch: "write", mkdir: "write", truncate: "write", tee: "write", mv: "write",
  cp: "last-write", install: "last-write", ln: "last-write",
  chmod: "first-skipped", chown: "first-skipped", chgrp: "first-skipped",
  grep: "first-skipped", egrep: "first-skipped", fgrep: "first-skipped", rg: "first-skipped", ag: "first-skipped", ack: "first-skipped",
  echo: "none", printf: "none", git: "none", cd: "none", pushd: "none", export: "none", ssh: "none", curl: "none", wget: "none",
})

const READERS = new Set([
  "cat", "head", "tail", "less", "more", "bat", "wc", "sort", "uniq", "cut", "nl", "tac", "od", "xxd", "hexdump", "strings", "file",
  "stat", "du", "ls", "tree", "diff", "cmp", "comm", "md5sum", "sha1sum", "sha256sum", "sha512sum", "shasum", "base64", "jq", "source", ".",
  "sed", "awk", "find", "python", "python3", "node", "bun", "bash", "sh", "zsh", "vim", "nano", "code",
])

/** A path whose place is not known before the command runs (`~-/x`, `~1/x`, /proc/PID/cwd/x): never
 *  dropped, the caller judges it as such. */
export interface Unplaced {
  path: string
  access: TouchedPath["access"]
}

export function touchedPaths(part: Part, home: string, unplaced?: Unplaced[]): TouchedPath[] {
  const out = operandPaths(part, home, unplaced)
  globOperands(part, out)
  return out
}

// echo and printf take no option that reads or runs anything
const NO_OPTIONS_THAT_MATTER = new Set(["echo", "printf"])

/**
 * Globs among the arguments whose matches can start with `-` (`*`, `[-a]*`, `?x/y`; not `./*`, `a*`, `/x/*`):
 * bash passes a file named `-S1` or `--compress-program=sh` as that word, which the program reads as an
 * option. Each is marked for the caller to look up on disk. After `--` no argument is an option.
 */
function globOperands(part: Part, out: TouchedPath[]): void {
  if (part.cwd === null || NO_OPTIONS_THAT_MATTER.has(part.program)) return
  const words = part.words
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!
    if (w.value === "--") return
    if (!w.glob || w.value === undefined || w.tilde) continue
    const first = w.value.split("/")[0]!
    if (!/^[-*?[]/.test(first)) continue
    for (const d of part.cwd) {
      const path = `${d === "/" ? "" : d}/${first}`
      const at = out.findIndex((p) => p.path === path && p.access === "read" && !p.follow)
      if (at >= 0) out[at] = { ...out[at]!, glob: true, operand: part.program }
      else out.push({ path, access: "read", glob: true, operand: part.program })
    }
  }
}

const CONFIG_SUBS = new Set(["config", "remote", "var"])

function operandPaths(part: Part, home: string, unplaced?: Unplaced[]): TouchedPath[] {
  const out = part.redirects.length ? redirectPaths(part.redirects, part.cwd, home, unplaced) : []
  const cwd = part.cwd
  const program = part.program
  const words = part.words
  const role = ROLES.get(program) ?? (READERS.has(program) ? "read" : undefined)
  // (printsConfig holds only for config, remote and var: the values are copied for those alone)
  if (program === "git" && CONFIG_SUBS.has(words[1]?.value ?? "") && printsConfig(words.slice(1).map((w) => w.value))) gitConfigFiles(part, home, out, words[1]?.value === "remote")
  // git diff/grep --no-index read files, not the repository
  if (program === "git" && hasWord(words, "--no-index")) {
    for (const w of operands(words, 2)) addPath(out, w, "read", cwd, home, unplaced)
    return out
  }
  // options read the files they name (git blame --contents F, diff --from-file=F, date --file=F, grep -fF):
  // every `--opt=` value and `-xVALUE` that looks like a path, and git's path-looking words, are reads the
  // path rules judge
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!
    const v = w.value ?? ""
    const eq = v.startsWith("--") ? v.indexOf("=") : -1
    const attached = eq >= 0 ? v.slice(eq + 1) : v.charCodeAt(0) === 45 && (v.includes("/") || v.includes("~")) ? /^-[A-Za-z0-9]+([/~].*)$/.exec(v)?.[1] : undefined
    if (attached !== undefined) {
      // the word for the value is made only for a value that looks like a path (most are not: --format=%h)
      if (looksLikePathValue(attached, false)) addPath(out, { ...w, value: attached, text: attached, tilde: false }, "read", cwd, home, unplaced)
    } else if (program === "git" && (lineRange(v) !== undefined || words[i - 1]?.value === "-L")) {
      // `git log -L1,1:.env`, `-L:func:.env`, `-L 1,1:.env`: the file after a `:` of -L's value is read
      for (const file of lineRangeFiles(lineRange(v) ?? v)) addPath(out, { ...w, value: file, text: file, tilde: false, glob: false }, "read", cwd, home, unplaced)
    } else if (program === "git" && !v.startsWith("-")) {
      const inObject = objectPath(v)
      if (inObject !== undefined) addPath(out, { ...w, value: inObject, text: inObject, tilde: false, glob: false }, "read", cwd, home, unplaced)
      else if (looksLikePath(w) || v.charCodeAt(0) === 126 || v.charCodeAt(0) === 46) addPath(out, w, "read", cwd, home, unplaced)
    }
  }
  for (const w of optionReads(program, words)) addPath(out, w, "read", cwd, home, unplaced)
  // curl/wget: file: URLs, @FILE values, --netrc-file, -T, wget --post-file: local files they read
  if (NET_PROGRAMS.has(program)) for (const f of netFiles(part, home).files) addPath(out, f.value, "read", cwd, home, unplaced)
  if (role === "none") return out
  const ops = operands(words, 1)
  if (role === "write") for (const w of ops) addPath(out, w, "write", cwd, home, unplaced)
  else if (role === "last-write") ops.forEach((w, i) => addPath(out, w, i === ops.length - 1 && ops.length > 1 ? "write" : "read", cwd, home, unplaced))
  else if (role === "first-skipped") {
    const access = program === "chmod" || program === "chown" || program === "chgrp" ? "write" : "read"
    for (let i = patternGiven(program, words) ? 0 : 1; i < ops.length; i++) addPath(out, ops[i]!, access, cwd, home, unplaced)
  } else if (role === "read") {
    const access = program === "sed" && words.some((x) => x.value?.startsWith("-i")) ? "write" : "read"
    const written = program === "find" ? findOutputs(words) : undefined
    for (const w of ops) addPath(out, w, written?.has(w) ? "write" : access, cwd, home, unplaced)
  } else for (const w of ops) if (looksLikePath(w)) addPath(out, w, "read", cwd, home, unplaced)
  if (program === "dd") {
    for (const w of words) {
      if (w.value?.startsWith("of=")) addPath(out, { ...w, value: w.value.slice(3), tilde: w.value.startsWith("of=~") }, "write", cwd, home, unplaced)
      else if (w.value?.startsWith("if=")) addPath(out, { ...w, value: w.value.slice(3), tilde: w.value.startsWith("if=~") }, "read", cwd, home, unplaced)
    }
  }
  return out
}

// find's -fprint/-fprint0/-fprintf/-fls FILE create FILE and write the listing (-fprintf's format) into it
function findOutputs(words: readonly Word[]): Set<Word> {
  const out = new Set<Word>()
  for (let i = 1; i < words.length - 1; i++) if (/^-f(print0?|printf|ls)$/.test(words[i]!.value ?? "")) out.add(words[i + 1]!)
  return out
}

/** Redirect targets: `<` reads, everything else writes. */
export function redirectPaths(redirects: readonly RawRedirect[], cwd: Cwd, home: string, unplaced?: Unplaced[]): TouchedPath[] {
  const out: TouchedPath[] = []
  for (const r of redirects) addPath(out, r.target, r.access === "read" ? "read" : "write", cwd, home, unplaced)
  return out
}

function addPath(out: TouchedPath[], w: Word, access: TouchedPath["access"], cwd: Cwd, home: string, unplaced?: Unplaced[]): void {
  const proc = procPattern(w)
  if (proc) w = { ...w, value: proc, text: proc, glob: false, tilde: false }
  if (w.value === undefined || w.value === "" || w.placeholder) return
  const paths = resolveWord(w, cwd, home)
  // a relative path in an unknown directory is judged where the program is (secretreads.ts)
  if (unplaced && ((paths === null && (w.tilde || w.value.startsWith("/"))) || (w.value.startsWith("/proc/") && otherProcess(w.value)))) unplaced.push({ path: w.value, access })
  for (const path of paths ?? []) {
    // what a glob could match among sensitive paths counts as touched: path rules and risk.paths see it
    // (first: a reason then names the real path, not the glob)
    if (w.glob) for (const candidate of globCandidates(path, false)) out.push({ path: candidate, access })
    out.push(w.glob ? { path, access, glob: true } : { path, access })
  }
}

/**
 * The path inside a git object name (`HEAD:.env`, `:.env` and `:2:.env` in the index, `v1^{tree}:cfg/id_rsa`):
 * git show and git cat-file print that file as it was committed or staged. Taken from the directory git
 * runs in (git reads it from the repository's root unless it starts with `./`; the path rules that
 * name files by their name alone meet it either way). `:/text` searches commit messages: no path.
 */
export function objectPath(v: string): string | undefined {
  if (v.includes("://")) return undefined
  if (v.startsWith(":/")) return undefined
  const staged = /^:[0-3]:(.*)$/s.exec(v)
  if (staged) return staged[1] || undefined
  if (v.startsWith(":")) return v.slice(1) || undefined
  let depth = 0
  for (let i = 0; i < v.length; i++) {
    const c = v[i]
    if (c === "{") depth++
    else if (c === "}") depth = Math.max(0, depth - 1)
    else if (c === ":" && depth === 0) return v.slice(i + 1) || undefined
  }
  return undefined
}

// a short-option bundle ending in L with its value attached (`-L1,1:f`, `-nL:fn:f`)
function lineRange(v: string): string | undefined {
  return v.charCodeAt(0) === 45 && v.charCodeAt(1) !== 45 ? /^-[A-Za-z]*?L(.+)$/s.exec(v)?.[1] : undefined
}

// -L's value is `start,end:file` or `:funcname:file`, and a range or funcname can be a regex holding `:`:
// every text after a `:` counts as the file (the other candidates are names no rule holds)
function lineRangeFiles(v: string): string[] {
  const out: string[] = []
  for (let at = v.indexOf(":"); at >= 0; at = v.indexOf(":", at + 1)) if (at + 1 < v.length) out.push(v.slice(at + 1))
  return out
}

function looksLikePath(w: Word): boolean {
  return looksLikePathValue(w.value ?? "", w.tilde)
}

function looksLikePathValue(v: string, tilde: boolean): boolean {
  if (v.includes("://") || v.includes("=")) return false
  return v.startsWith("/") || v.startsWith("./") || v.startsWith("../") || v === "." || v === ".." || tilde || (v.includes("/") && !v.includes(":")) || (v.charCodeAt(0) === 46 && /^\.[A-Za-z0-9_]/.test(v))
}

/** `git config`, `git remote -v`/get-url/show, `git var -l` (the words after `git`): what git's config
 *  files hold is printed */
export function printsConfig(args: readonly (string | undefined)[]): boolean {
  const sub = args[0]
  if (sub === "config") return true
  if (sub === "remote") return args.some((a) => a === "-v" || (a?.startsWith("--") === true && gitVerbose(a)) || a === "get-url" || a === "show")
  return sub === "var" && args.includes("-l")
}

/**
 * The config files `git config` (and `git remote -v`, and its remotes files) reads (and prints with -l, --get-regexp, get --all): the repository's,
 * found from where git starts upward, the user's and the system's. The caller looks at them on disk: one
 * holding a credential (an extraheader token, a URL with a password) makes the read one of a secret.
 */
function gitConfigFiles(part: Part, home: string, out: TouchedPath[], remotes: boolean): void {
  let starts = part.cwd ?? []
  for (const d of part.git?.dirs ?? []) starts = resolveWord(d, starts, home) ?? []
  const seen = new Set<string>()
  for (const start of starts) {
    for (let dir = start; ; dir = dir.slice(0, dir.lastIndexOf("/")) || "/") {
      const file = `${dir === "/" ? "" : dir}/.git/config`
      if (!seen.has(file)) {
        seen.add(file)
        // extensions.worktreeConfig: git reads config.worktree after config
        out.push({ path: file, access: "read" }, { path: `${file}.worktree`, access: "read" })
        // git remote also lists the remotes of the old files $GIT_DIR/remotes/NAME and branches/NAME
        if (remotes) for (const old of ["remotes", "branches"]) out.push({ path: `${file.slice(0, -7)}/${old}/*`, access: "read", glob: true })
      }
      if (dir === "/") break
    }
  }
  for (const path of [`${home}/.gitconfig`, `${home}/.config/git/config`, "/etc/gitconfig"]) out.push({ path, access: "read" })
}
