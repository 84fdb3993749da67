// sed, awk and find: their options read the way the programs read them, their scripts and expressions
// judged piece by piece. A script we cannot see (`-f FILE`) or do not understand is not plain. Pure.
import type { Finding } from "./raw.ts"
import type { View } from "./table.ts"
import type { Word } from "./word.ts"
import { lazyOptions, readOptions } from "./getopt.ts"
import { awkIsPlain, awkReadsEnvironment, awkSecretNames, awkUsesArgv, sedIsPlain } from "./textprog.ts"
import { writeVerdict } from "./paths.ts"

export const SED = lazyOptions({
  short: "ne:f:Ersuzi::l:b",
  long: "quiet silent expression= file= in-place? line-length= null-data zero-terminated separate unbuffered regexp-extended posix debug sandbox follow-symlinks binary help version",
})

export function sed(v: View, out: Finding[]): void {
  const r = readOptions(v.args, SED())
  if (r.unknown) out.push(unknownOption("sed", r.unknown))
  const scripts: (Word | undefined)[] = []
  let inPlace = false
  for (const o of r.valued) {
    if (o.name === "e" || o.name === "expression") scripts.push(o.value)
    else if (o.name === "f" || o.name === "file") out.push({ name: "sed-program", level: "medium", reason: `sed ${o.written} reads its script from a file ccode cannot see` })
    else if (o.name === "i" || o.name === "in-place") inPlace = true
  }
  const files = [...r.operands]
  if (!r.valued.some((o) => o.name === "e" || o.name === "expression" || o.name === "f" || o.name === "file")) scripts.push(files.shift())
  for (const s of scripts) {
    if (s?.value === undefined) out.push({ name: "sed-program", level: "medium", reason: "the sed script is not static" })
    else if (!sedIsPlain(s.value)) out.push({ name: "sed-program", level: "medium", reason: `the sed script ${JSON.stringify(s.value.slice(0, 40))} may run commands or write files (e, w, r, ...)` })
  }
  if (!inPlace) return
  if (!files.length) out.push({ name: "write-files", level: "medium", reason: "sed -i edits files chosen at run time" })
  for (const f of files) {
    v.writes.push(f)
    const verdict = writeVerdict(f, v.part.cwd, v.place)
    if (verdict) out.push({ name: "write-files", level: verdict.level, reason: `edits in place: ${verdict.reason}` })
  }
}

export const AWK = lazyOptions({
  short: "F:v:f:e:bcCMNOPrsStV",
  long: "field-separator= assign= file= source= sandbox traditional posix re-interval characters-as-bytes copyright use-lc-numeric bignum non-decimal-data optimize no-optimize lint? version help",
})

export function awk(v: View, out: Finding[]): void {
  const r = readOptions(v.args, AWK())
  if (r.unknown) out.push(unknownOption(v.program, r.unknown))
  const programs: (Word | undefined)[] = []
  for (const o of r.valued) {
    if (o.name === "e" || o.name === "source") programs.push(o.value)
    else if (o.name === "f" || o.name === "file") out.push({ name: "awk-program", level: "medium", reason: `${v.program} ${o.written} reads its program from a file ccode cannot see` })
  }
  if (!r.valued.some((o) => ["e", "source", "f", "file"].includes(o.name))) programs.push(r.operands[0])
  for (const p of programs) {
    if (p?.value === undefined) out.push({ name: "awk-program", level: "medium", reason: `the ${v.program} program is not static` })
    else if (!awkIsPlain(p.value)) out.push({ name: "awk-program", level: "medium", reason: `the ${v.program} program may run commands or write files (system, getline, |, >)` })
    if (p?.value === undefined) continue
    if (awkReadsEnvironment(p.value)) out.push({ name: "print-environment", level: "medium", reason: `the ${v.program} program reads ENVIRON as a whole: prints the environment, which may hold secrets` })
    for (const name of awkSecretNames(p.value, v.place.env)) out.push({ name: "secret-variable", level: "medium", reason: `the ${v.program} program reads the secret variable ${name} (ENVIRON["${name}"]): its value reaches the output` })
    if (awkUsesArgv(p.value)) out.push({ name: "read-unknown", level: "medium", reason: `the ${v.program} program changes ARGV/ARGC: awk reads the files it puts there, which ccode cannot see` })
  }
}

// find's primaries and how many words each takes; -exec & co. run until `;` or `+`
const FIND_PRIMARIES = new Map<string, number>([
  ...["-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-type", "-xtype", "-maxdepth", "-mindepth", "-newer", "-anewer", "-cnewer",
    "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-used", "-size", "-user", "-group", "-uid", "-gid", "-perm", "-links", "-inum", "-samefile",
    "-lname", "-ilname", "-regextype", "-fstype", "-context", "-printf", "-files0-from"].map((n) => [n, 1] as [string, number]),
  ...["-print", "-print0", "-prune", "-not", "-a", "-o", "-and", "-or", "-follow", "-xdev", "-mount", "-depth", "-ls", "-readable", "-writable", "-executable",
    "-daystart", "-noleaf", "-quit", "-true", "-false", "-nouser", "-nogroup", "-empty", "-ignore_readdir_race", "-noignore_readdir_race", "-warn", "-nowarn",
    "-delete", "-help", "-version"].map((n) => [n, 0] as [string, number]),
  ["-fprint", 1], ["-fprint0", 1], ["-fls", 1], ["-fprintf", 2],
])
const EXEC = /^-(exec|execdir|ok|okdir)$/

/** The first find expression word ccode does not know, if any (the start paths and -H/-L/-P/-D/-O are skipped). */
export function findUnknown(values: readonly string[]): string | undefined {
  let i = 0
  while (i < values.length && /^-[HLP]$|^-D|^-O\d?$/.test(values[i]!)) i += values[i] === "-D" ? 2 : 1
  while (i < values.length && !/^[-(!),]/.test(values[i]!)) i++
  for (; i < values.length; i++) {
    const w = values[i]!
    if (EXEC.test(w)) {
      while (i < values.length && values[i] !== ";" && !(values[i] === "+" && values[i - 1] === "{}")) i++
      continue
    }
    if (!w.startsWith("-") || w === "-") continue
    const argc = FIND_PRIMARIES.get(w) ?? (/^-newer[amcBt][amcBt]$/.test(w) ? 1 : undefined)
    if (argc === undefined) return w
    i += argc
  }
  return undefined
}

export function unknownOption(name: string, option: string): Finding {
  return { name: "unknown-option", level: "medium", reason: `${name} ${option}: not an option ccode knows to be read-only` }
}
