// The canonical form of a command's arguments: short-flag clusters split (`-rf` = `-r -f`), known long
// flags mapped to their short form (`--recursive` = `-r`), flags as a set, operands in order. Pure.
import { byName } from "./options.ts"

export interface Canonical {
  /** `-r`, `-f`, `--force-with-lease`, `--force-with-lease=main` (long flags keep their value too) */
  flags: ReadonlySet<string>
  operands: string[]
}

// long flag -> short letter(s), for the commands in the built-in table
const LONG = byName<ReadonlyMap<string, string>>({
  rm: byName({ recursive: "r", force: "f", dir: "d", verbose: "v", interactive: "i" }),
  rmdir: byName({ parents: "p", verbose: "v" }),
  cp: byName({ recursive: "r", force: "f", verbose: "v", archive: "a", "no-clobber": "n", interactive: "i", link: "l", "symbolic-link": "s", update: "u" }),
  mv: byName({ force: "f", verbose: "v", "no-clobber": "n", interactive: "i", update: "u" }),
  ln: byName({ force: "f", symbolic: "s", verbose: "v", "no-dereference": "n" }),
  chmod: byName({ recursive: "R", verbose: "v", changes: "c", silent: "f", quiet: "f" }),
  chown: byName({ recursive: "R", verbose: "v", changes: "c", silent: "f", quiet: "f" }),
  chgrp: byName({ recursive: "R", verbose: "v", changes: "c", silent: "f", quiet: "f" }),
  mkdir: byName({ parents: "p", verbose: "v", mode: "m" }),
  touch: byName({ "no-create": "c" }),
  shred: byName({ force: "f", remove: "u", zero: "z", verbose: "v", iterations: "n" }),
  ls: byName({ all: "a", "almost-all": "A", long: "l", recursive: "R", human: "h", "human-readable": "h" }),
  grep: byName({ recursive: "r", "ignore-case": "i", "files-with-matches": "l", count: "c", "line-number": "n", invert: "v", "invert-match": "v" }),
  git: byName({ force: "f", delete: "d", all: "a", quiet: "q", verbose: "v", "dry-run": "n", message: "m", patch: "p", recursive: "r", tags: "t", "set-upstream": "u", interactive: "i" }),
  kill: byName({ signal: "s", list: "l" }),
  sed: byName({ "in-place": "i", quiet: "n", silent: "n", expression: "e", "regexp-extended": "E" }),
  tar: byName({ extract: "x", create: "c", file: "f", gzip: "z", verbose: "v", list: "t" }),
  curl: byName({ output: "o", "remote-name": "O", request: "X", data: "d", form: "F", "upload-file": "T", location: "L", silent: "s", insecure: "k" }),
  rsync: byName({ archive: "a", recursive: "r", verbose: "v", compress: "z", "dry-run": "n" }),
  npm: byName({ global: "g", force: "f" }),
})

// `-D` on git branch is --delete --force, `rm -R` is `rm -r`: canonical deny rules for either spelling match both
const SHORT_ALIASES = byName<ReadonlyMap<string, string[]>>({
  git: byName({ D: ["d", "f"], M: ["m", "f"], C: ["c", "f"] }),
  rm: byName({ R: ["r"] }),
  cp: byName({ R: ["r"] }),
  grep: byName({ R: ["r"] }),
})

// single-dash long options: splitting their names would be nonsense
const NO_CLUSTERS = new Set(["find", "java", "dd", "gcc", "g++", "clang", "clang++", "cc", "go", "xargs", "ffmpeg", "convert", "magick", "openssl", "tcpdump", "iptables", "ip", "npx", "bunx"])

// shared by every command without flags (most `git status`, `npm test`): read only, never added to
const NO_FLAGS: ReadonlySet<string> = new Set()

export function canonical(program: string, args: readonly string[]): Canonical {
  const operands: string[] = []
  let i = 0
  // most arguments are operands: the set and the program's tables are looked up at the first flag
  while (i < args.length && isOperand(args[i]!)) operands.push(args[i++]!)
  if (i === args.length) return { flags: NO_FLAGS, operands }
  const flags = new Set<string>()
  const long = LONG.get(program)
  const aliases = SHORT_ALIASES.get(program)
  const clusters = !NO_CLUSTERS.has(program)
  let done = false
  for (; i < args.length; i++) {
    const a = args[i]!
    if (done || isOperand(a)) {
      operands.push(a)
      continue
    }
    if (a.charCodeAt(1) === 45) {
      if (a.length === 2) {
        done = true
        continue
      }
      const eq = a.indexOf("=")
      const name = eq < 0 ? a.slice(2) : a.slice(2, eq)
      const short = long?.get(name)
      flags.add(short ? `-${short}` : eq < 0 ? a : `--${name}`)
      if (eq >= 0) flags.add(a)
      continue
    }
    if (!clusters || isNumber(a)) {
      flags.add(a)
      continue
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!
      const expanded = aliases?.get(c)
      if (expanded) for (const e of expanded) flags.add(dashed(e))
      else flags.add(dashed(c))
    }
  }
  return { flags, operands }
}

// `-x` for every ASCII character, made once: a cluster's letters are split for every command
const DASHED: string[] = dashedAscii()

// a loop in a function, not at the top of the module: a loop there makes the engine JIT-compile the
// top-level code of the whole bundled chunk (~5 ms per start of the hook; docs/hosts.md)
function dashedAscii(): string[] {
  const out: string[] = []
  for (let c = 0; c < 128; c++) out.push(`-${String.fromCharCode(c)}`)
  return out
}

function dashed(c: string): string {
  return DASHED[c.charCodeAt(0)] ?? `-${c}`
}

function isOperand(a: string): boolean {
  return a.length < 2 || a.charCodeAt(0) !== 45 || a.includes("*")
}

function isNumber(flag: string): boolean {
  for (let i = 1; i < flag.length; i++) {
    const c = flag.charCodeAt(i)
    if (c < 48 || c > 57) return false
  }
  return true
}

export function hasFlag(c: Canonical, ...names: string[]): boolean {
  for (const n of names) if (c.flags.has(n)) return true
  return false
}
