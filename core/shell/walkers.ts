// Walkers that copy, archive or print every file below a folder (`find ~ -exec cat {} +`, `tar -cf - ~`,
// `zip -r - ~`, `cp -r ~ ./h`, `rsync -a ~/ h/`, `7z a x.7z ~`, `gzip -rc ~`, `find ~ | xargs cat`): read
// like a recursive grep. A walk of a folder that holds (or is inside) a credential location reads it, and
// the tree is marked for the caller to look up on disk the files a path rule names (the workspace's .env).
// Walks that only name or count files (`find . -exec wc -l {} +`, `tar -tf`, `cp` without -r) are not
// reads of what is below. Pure: the words only.
import type { Part } from "./part.ts"
import type { TouchedPath } from "./types.ts"
import type { Word } from "./word.ts"
import { basename, operands, splitArgs } from "./part.ts"
import { resolveWord } from "./cwd.ts"
import { credentialVariableRead, credentialsBelow, credentialsBelowGlob } from "./secretreads.ts"

// what find -exec (or fd -x, or xargs fed by a walk) may run without reading the files' content
const ABOUT_ONLY = new Set([
  "wc", "stat", "ls", "file", "du", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum", "sum",
  "touch", "rm", "rmdir", "unlink", "chmod", "chown", "chgrp", "echo", "printf", "test", "[", "true", "false", "basename", "dirname",
  "realpath", "readlink",
])
const FINDS = new Set(["find", "gfind", "bfs"])
const TARS = new Set(["tar", "gtar", "bsdtar"])
const SEVENS = new Set(["7z", "7za", "7zr"])
const PACKERS = new Set(["gzip", "pigz", "bzip2", "xz", "zstd", "lz4"])
// tar's short options that take a value (the next word, or the rest of the bundle)
const TAR_VALUED = "fCTXbKNgLVHIF"
// tar's long options that take a value as the next word when written without `=`
const TAR_LONG_VALUED = ["--file", "--directory", "--files-from", "--exclude-from", "--exclude", "--label", "--format", "--transform", "--owner", "--group", "--mode", "--mtime", "--newer", "--use-compress-program", "--to-command", "--blocking-factor", "--index-file", "--listed-incremental", "--info-script", "--new-volume-script", "--rmt-command", "--rsh-command", "--tape-length"]

const NONE: TouchedPath[] = []

/** The reads of every file below the folders a walker copies, archives or prints. */
export function walkerReads(part: Part, home: string, leads: (path: string) => string[] = (p) => [p]): TouchedPath[] {
  const walk = walked(part, home)
  if (!walk) return NONE
  const out: TouchedPath[] = []
  const roots: string[] = []
  if (walk.roots.length === 0) roots.push(...(walk.cwd ?? part.cwd ?? ["/"]))
  // a folder named only at run time could be any (`$(echo ~)`): the whole tree, unless a credential
  // variable names it (`cp -r $PASSWORD_STORE_DIR x`: judged with that name by credentialVariableRead)
  for (const w of walk.roots) roots.push(...(resolveIn(w, walk.cwd ?? part.cwd, home) ?? (credentialVariableRead(part, home) ? [] : ["/"])))
  for (const r of roots) {
    if (/[*?[]/.test(r)) {
      out.push({ path: r, access: "read", glob: true, recursive: true }, { path: r, access: "read", tree: "all" })
      for (const path of credentialsBelowGlob(r, home)) out.push({ path, access: "read" })
      continue
    }
    for (const at of leads(r)) {
      for (const path of credentialsBelow(at, home)) out.push({ path, access: "read" })
      out.push({ path: at, access: "read", tree: "all" })
      if (walk.follows) out.push({ path: at, access: "read", follow: true })
    }
  }
  return out
}

interface Walk {
  roots: Word[]
  /** the folder relative roots are in (tar -C DIR), when not the part's own */
  cwd?: string[] | null
  /** the walk follows the links it meets (find -L, zip, tar -h, cp -L, rsync -L) */
  follows?: boolean
}

function resolveIn(w: Word, cwd: string[] | null, home: string): string[] | null {
  if (w.value === undefined || w.placeholder || w.hollow) return null
  return resolveWord(w, cwd, home)
}

function walked(part: Part, home: string): Walk | undefined {
  const p = part.program
  const words = part.words
  if ((part.appended || part.appendedPlaceholder !== undefined) && !ABOUT_ONLY.has(p)) {
    const fed = fedByWalk(part, home)
    if (fed) return fed
  }
  if (p === "parallel") return parallelWalk(part, home)
  if (FINDS.has(p)) return runsReader(words, ["-exec", "-execdir", "-ok", "-okdir"]) ? findRoots(words) : undefined
  if (p === "fd" || p === "fdfind") return runsReader(words, ["-x", "--exec", "-X", "--exec-batch"]) ? { roots: operands(words, 1).slice(1), follows: flag(words, "L", "--follow") } : undefined
  if (TARS.has(p)) return tarWalk(words, part, home)
  if (p === "zip") return zipWalk(part, home)
  if (p === "cpio") return flag(words, "op", "--create", "--pass-through") ? walkIn(part.stdin, home) : undefined
  if (SEVENS.has(p)) return words[1]?.value === "a" || words[1]?.value === "u" ? { roots: operands(words, 2).slice(1) } : undefined
  if (p === "cp") return flag(words, "rRa", "--recursive", "--archive") ? { roots: sources(words), follows: flag(words, "L", "--dereference") } : undefined
  if (p === "rsync") return flag(words, "ra", "--recursive", "--archive") ? { roots: sources(words), follows: flag(words, "L", "--copy-links") } : undefined
  if (PACKERS.has(p)) return flag(words, "r", "--recursive") && flag(words, "c", "--stdout", "--to-stdout") ? { roots: operands(words, 1) } : undefined
  if (p === "pax") return flag(words, "w") ? { roots: operands(words, 1) } : undefined
  return undefined
}

// find's -exec runs something other than a program that only names or counts the files
function runsReader(words: readonly Word[], actions: string[]): boolean {
  for (let i = 1; i < words.length; i++) {
    if (!actions.includes(words[i]!.value ?? "")) continue
    const run = words[i + 1]
    if (!run || run.value === undefined || !ABOUT_ONLY.has(basename(run.value))) return true
    // wc/du --files0-from={} print a file's text as the names they cannot open
    for (let k = i + 2; k < words.length && words[k]!.value !== ";" && words[k]!.value !== "+"; k++) if (words[k]!.value?.startsWith("--files0") !== false) return true
  }
  return false
}

// find's start folders: the words after its global options and before the expression
function findRoots(words: readonly Word[]): Walk {
  const roots: Word[] = []
  let follows = false
  let i = 1
  for (; i < words.length; i++) {
    const v = words[i]!.value
    if (v === "-H" || v === "-P") continue
    if (v === "-L") follows = true
    else if (v === "-D" || v === "-O" || v?.startsWith("-O")) i += v === "-D" || v === "-O" ? 1 : 0
    else break
  }
  for (; i < words.length; i++) {
    const v = words[i]!.value
    if (v !== undefined && (v.startsWith("-") || v === "(" || v === "!" || v === ",")) break
    roots.push(words[i]!)
  }
  for (const w of words) if (w.value === "-follow") follows = true
  return { roots, follows }
}

// tar in create, append or update mode: the operands (after -C DIR, in that folder)
function tarWalk(words: readonly Word[], part: Part, home: string): Walk | undefined {
  let creates = false
  let follows = false
  let dir: Word | undefined
  // -T LIST: the names to pack are in a file (or stdin) read at run time
  let list: Word | undefined
  const roots: Word[] = []
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!
    const v = w.value
    if (v === undefined) {
      roots.push(w)
      continue
    }
    if (v.startsWith("--")) {
      const name = v.split("=")[0]!
      if (name.length > 3 && ["--create", "--append", "--update", "--catenate"].some((l) => l.startsWith(name))) creates = true
      if (name.length > 3 && "--dereference".startsWith(name)) follows = true
      if (!v.includes("=") && name.length > 3 && TAR_LONG_VALUED.some((l) => l.startsWith(name))) {
        if ("--directory".startsWith(name)) dir = words[i + 1]
        if (name.length > 7 && "--files-from".startsWith(name)) list = words[i + 1]
        i++
      } else if (v.includes("=") && name.length > 3) {
        const value = { ...w, value: v.slice(v.indexOf("=") + 1), text: v.slice(v.indexOf("=") + 1) }
        if ("--directory".startsWith(name)) dir = value
        if (name.length > 7 && "--files-from".startsWith(name)) list = value
      }
      continue
    }
    // the first word is a bundle of letters with or without its dash (`cf`, `-czf`)
    if (v.startsWith("-") || i === 1) {
      const letters = v.startsWith("-") ? v.slice(1) : v
      for (let k = 0; k < letters.length; k++) {
        const c = letters[k]!
        if (c === "c" || c === "r" || c === "u" || c === "A") creates = true
        if (c === "h") follows = true
        if (!TAR_VALUED.includes(c)) continue
        // old style (no dash): every valued letter takes the next word; with a dash the rest of the bundle
        const attached = v.startsWith("-") && k + 1 < letters.length
        const value = attached ? { ...w, value: letters.slice(k + 1), text: letters.slice(k + 1) } : words[i + 1]
        if (c === "C") dir = value
        if (c === "T") list = value
        if (attached) break
        i++
      }
      continue
    }
    roots.push(w)
  }
  if (!creates) return undefined
  if (list) {
    const fed = list.value === "-" ? walkIn(part.stdin, home) : undefined
    // a list that is itself a credential file is judged as the read it is (`tar -T ~/.netrc`)
    if (fed) roots.push(...fed.roots)
    else if (!listIsCredential(list, part, home)) roots.push({ ...list, value: undefined })
  }
  if (!dir) return { roots, follows }
  return { roots, follows, cwd: dir.value === undefined ? null : resolveWord(dir, part.cwd, home) }
}

function listIsCredential(list: Word, part: Part, home: string): boolean {
  const paths = list.value === undefined ? null : resolveWord(list, part.cwd, home)
  return paths !== null && paths.length > 0 && paths.every((p) => credentialsBelow(p, home).length > 0)
}

// cp's and rsync's sources: every operand but the last, or all of them with -t DIR
function sources(words: readonly Word[]): Word[] {
  const ops = operands(words, 1)
  return words.some((w) => /^-[^-]*t/.test(w.value ?? "") || (w.value ?? "").startsWith("--target")) ? ops : ops.slice(0, -1)
}

// zip's operands: `-` (the archive on stdout) is one
function named(words: readonly Word[]): Word[] {
  return words.slice(1).filter((w) => w.value === undefined || w.value === "-" || !w.value.startsWith("-"))
}

// a short letter in a bundle, or a long option (any unique prefix of it)
function flag(words: readonly Word[], letters: string, ...longs: string[]): boolean {
  for (let i = 1; i < words.length; i++) {
    const v = words[i]!.value
    if (v === undefined || v === "--") break
    if (v.startsWith("--")) {
      const name = v.split("=")[0]!
      if (name.length > 3 && longs.some((l) => l.startsWith(name))) return true
    } else if (v.startsWith("-") && [...letters].some((l) => v.slice(1).includes(l))) return true
  }
  return false
}

// xargs fed by a walk that names every file below a folder (`find ~ -type f | xargs cat`, `rg --files ~ | xargs cat`)
function fedByWalk(part: Part, home: string): Walk | undefined {
  return walkIn(part.appendedInput, home)
}

// GNU parallel fed by a walk runs its command on every name (`find ~ | parallel cat`); its first
// operand that is not an option's number is the command
function parallelWalk(part: Part, home: string): Walk | undefined {
  const run = operands(part.words, 1).find((w) => !/^\d+$/.test(w.value ?? ""))
  if (!run || (run.value !== undefined && ABOUT_ONLY.has(basename(run.value)))) return undefined
  return walkIn(part.stdin, home)
}

// zip -r walks its operands; zip -@ packs the names its input gives (a walk's, or any when not known)
function zipWalk(part: Part, home: string): Walk | undefined {
  const words = part.words
  const follows = !flag(words, "y", "--symlinks")
  const roots = flag(words, "rR", "--recurse-paths") ? named(words).slice(1) : []
  if (flag(words, "@", "--names-stdin")) roots.push(...(walkIn(part.stdin, home)?.roots ?? []))
  return roots.length ? { roots, follows } : undefined
}

// the start folders of a walk whose names come in on stdin through a pipe
function walkIn(stdin: Part["stdin"], home: string): Walk | undefined {
  if (stdin?.kind !== "pipe" || stdin.from.length !== 1) return undefined
  // a name written with a tilde is in the home (the producer's text, as written)
  const words = splitArgs(stdin.from[0]!, home).map((w) => (w.value?.startsWith("~") ? { ...w, tilde: true } : w))
  const program = basename(words[0]?.value ?? "")
  if (FINDS.has(program)) return findRoots(words)
  if (program === "fd" || program === "fdfind") return { roots: operands(words, 1).slice(1) }
  if (program === "rg" && words.some((w) => w.value === "--files")) return { roots: operands(words, 1) }
  return undefined
}
