// Links a command line makes for itself: `ln -s ~/.ssh x && cat x/id_rsa`, `ln -s ~/.bashrc f; echo
// evil >> f`, `cp -s`, `mv` of a link, a copy that keeps links (`cp -a`), an archive or checkout that may
// hold links. The caller's realpath only knows the links that exist when the command is decided; a path
// that names what the command itself made a link first is judged by where the link leads, and where
// that cannot be known (an extracted archive, `ln -s "$X" f`) it is not "inside the workspace". Pure.
import type { Part } from "./part.ts"
import type { Word } from "./word.ts"
import { readOptions, type Compiled } from "./getopt.ts"
import { copyOptions } from "./copyopts.ts"
import { isInsideFold, resolveWord } from "./cwd.ts"
import { basename } from "./part.ts"

export interface MadeLink {
  /** the link's path (or the directory a tree of possible links lands in) */
  at: string
  /** where it leads, absolute; null: it could lead anywhere */
  to: string[] | null
  /** `at` is a real directory and only what is below it may be a link (an extracted archive) */
  tree?: boolean
  /** the index of the part that makes it (its own operands are judged as they are written) */
  part: number
  /** how the command makes it, for reasons */
  how: string
}

export interface Through {
  /** where the path leads through links the command makes (realpath applied) */
  paths: string[]
  /** a link on the way could lead anywhere */
  unknown?: MadeLink
}

// Where `-C DIR`, `-vxC DIR`, `-CDIR`, `-d DIR`, `--directory=DIR`, `--dir DIR` put the files: "" when the
// next word is DIR, the attached value, or undefined when the word does not name one (in a bundle the
// first letter that takes a value takes the rest: `-xfC` is -f C)
function extractDir(v: string): string | undefined {
  const long = /^--([a-z-]+)(=(.*))?$/s.exec(v)
  if (long) return long[1]!.length >= 3 && "directory".startsWith(long[1]!) ? (long[2] ? long[3]! : "") : undefined
  const short = /^-[a-zA-Z]*?([bCdfFgHIKLNTVX])(.*)$/s.exec(v)
  return short && (short[1] === "C" || short[1] === "d") ? short[2]! : undefined
}

// cp keeps links as links (or makes them) with these: -s/-l make them, -P/-d/-a/-R/-r copy links as links
const CP_KEEPS = /^-[A-Za-z]*[sldPRra]|^--(s|sy|sym|symb|symbo|symbol|symboli|symbolic|symbolic-|symbolic-l|symbolic-li|symbolic-lin|symbolic-link|li|lin|link|no-d|no-de|no-der|no-dere|no-deref|no-derefe|no-derefer|no-derefere|no-dereferen|no-dereferenc|no-dereference|ar|arc|arch|archi|archiv|archive|rec|recu|recur|recurs|recursi|recursiv|recursive|pr|pre|pres|prese|preser|preserv|preserve)(=|$)/
// git subcommands that write the work tree: what they check out may be a symlink anywhere in it
const GIT_CHECKOUTS = new Set(["clone", "checkout", "switch", "restore", "reset", "pull", "merge", "am", "apply", "stash", "cherry-pick", "rebase", "revert", "worktree", "submodule", "read-tree", "checkout-index", "sparse-checkout", "bisect"])
const EXTRACTORS = new Set(["tar", "gtar", "bsdtar", "unzip", "7z", "7za", "7zz", "cpio", "rsync", "patch", "ar", "unrar", "pax"])
const CREATORS = new Set(["ln", "link", "cp", "mv", "git", ...EXTRACTORS])
const NO_LINKS: MadeLink[] = []

/** Every link (or tree of possible links) the parts make; [] for nearly every command. */
export function madeLinks(parts: readonly Part[], home: string, workspace: string): MadeLink[] {
  let out: MadeLink[] | undefined
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!
    if (!CREATORS.has(part.program)) continue
    const made = linksOf(part, i, home, workspace)
    if (made.length) (out ??= []).push(...made)
  }
  return out ?? NO_LINKS
}

function linksOf(part: Part, index: number, home: string, workspace: string): MadeLink[] {
  const p = part.program
  // expand.ts left git's words as `git SUB ...` (global options removed); most git commands make nothing
  const sub = p === "git" ? part.words[1]?.value : undefined
  if (p === "git" && (!sub || !GIT_CHECKOUTS.has(sub) || readingForm(sub, part.words[2]))) return NO_LINKS
  const args = part.words.slice(1)
  const make = (at: string, to: string[] | null, how: string, tree = false): MadeLink => ({ at, to, part: index, how, ...(tree ? { tree } : {}) })
  if (p === "git") {
    const roots = new Set<string>([workspace, ...(part.cwd ?? ["/"])])
    for (const d of part.git?.dirs ?? []) for (const r of resolveWord(d, part.cwd, home) ?? ["/"]) roots.add(r)
    return [...roots].map((r) => make(r, null, `git ${sub}`, true))
  }
  if (EXTRACTORS.has(p)) {
    if (!extracts(p, args)) return []
    const roots = new Set<string>(part.cwd ?? ["/"])
    for (let i = 0; i < args.length; i++) {
      const v = args[i]!.value ?? ""
      const at = extractDir(v)
      const dir = at === undefined ? undefined : at === "" ? args[++i] : { ...args[i]!, value: at, tilde: false }
      if (dir) for (const r of dir.value === undefined ? ["/"] : resolveWord(dir, part.cwd, home) ?? ["/"]) roots.add(r)
    }
    // rsync and ar name their destination last
    const last = args.at(-1)
    if ((p === "rsync" || p === "ar") && last && !(last.value ?? "-").startsWith("-")) for (const r of resolveWord(last, part.cwd, home) ?? ["/"]) roots.add(r)
    return [...roots].map((r) => make(r, null, p, true))
  }
  // `link FILE1 FILE2` is a hard link without options
  const spec: Compiled = copyOptions(p === "ln" || p === "link" ? "ln" : p === "cp" ? "cp" : "mv")
  if (p === "cp" && !args.some((w) => w.value === undefined || CP_KEEPS.test(w.value))) return []
  if (part.appended) return [make("/", null, `${p} with arguments added at run time`)]
  const reading = readOptions(args, spec)
  const dirOption = reading.valued.find((v) => v.name === "t" || v.name === "target-directory")
  const symbolic = p === "ln" ? args.some((w) => /^-[A-Za-z]*s|^--sy/.test(w.value ?? "")) : p === "cp" && args.some((w) => /^-[A-Za-z]*s|^--sy/.test(w.value ?? ""))
  const ops = reading.operands
  let sources: Word[]
  let dest: Word | undefined
  if (dirOption) {
    sources = ops
    dest = dirOption.value
  } else if (ops.length >= 2) {
    sources = ops.slice(0, -1)
    dest = ops.at(-1)
  } else if (p === "ln" && ops.length === 1) {
    sources = ops
    dest = undefined // a link in the current directory named as the target's last segment
  } else return []
  const how = p === "ln" ? (symbolic ? "ln -s" : "ln") : p
  if (dest && (dest.value === undefined || dest.placeholder)) return [make("/", null, `${how} to ${dest.text}`)]
  const dests = dest ? resolveWord(dest, part.cwd, home) : part.cwd
  if (!dests) return [make("/", null, `${how} in an unknown directory`)]
  const out: MadeLink[] = []
  for (const s of sources) {
    const known = s.value !== undefined && !s.placeholder && !s.hollow
    const name = known ? basename(s.value!.replace(/\/+$/, "")) : ""
    for (const d of dests) {
      const ats = dest && !dirOption ? [d, `${d}/${name}`] : [`${d}/${name}`]
      for (const at of ats) {
        if (!known) {
          out.push(make(at, null, how))
          continue
        }
        // a relative symlink leads from the link's own directory; a hard link, copy or move from the cwd
        const from = symbolic && !s.value!.startsWith("/") && !s.tilde ? [at.slice(0, at.lastIndexOf("/")) || "/", ...(part.cwd ?? [])] : part.cwd
        const to = resolveWord(s, from, home)
        out.push(make(at, to, how))
      }
    }
  }
  return out
}

// the forms of those subcommands that only read (`git stash list`, `git worktree list`); a word not
// known statically (`git stash $X`) is taken to check out
function readingForm(sub: string, next: Word | undefined): boolean {
  const v = next?.value
  if (next && v === undefined) return false
  if (sub === "stash") return v === "list" || v === "show"
  if (sub === "worktree") return v !== undefined && v !== "add" && v !== "move"
  if (sub === "submodule") return v === undefined || v === "status" || v === "summary"
  if (sub === "bisect") return v === undefined || v === "log" || v === "visualize" || v === "view" || v === "terms" || v === "help"
  return false
}

function extracts(p: string, args: Word[]): boolean {
  if (p === "unzip" || p === "cpio" || p === "rsync" || p === "patch" || p === "unrar" || p === "pax") return true
  if (p === "7z" || p === "7za" || p === "7zz" || p === "ar") return args.some((w) => /^-?x/.test(w.value ?? "x"))
  // tar: an old-style first word (`xzf`), a bundle with x, --extract/--get (or a prefix of them)
  return args.some((w, i) => {
    const v = w.value
    if (v === undefined) return true
    if (i === 0 && !v.startsWith("-") && /x/.test(v)) return true
    return /^-[A-Za-z]*x/.test(v) || /^--(ex|ext|extr|extra|extrac|extract|g|ge|get)(=|$)/.test(v)
  })
}

const MAX_HOPS = 4
const MAX_PATHS = 16

/** Where `path` leads through the links other parts than `self` make; undefined when through none. */
export function throughLinks(path: string, links: readonly MadeLink[], self: number, realpath?: (p: string) => string): Through | undefined {
  let found: Through | undefined
  let frontier = [path]
  // made at the first path a link leads to: most paths lead through none, and this runs for every path
  let seen: Set<string> | undefined
  for (let hop = 0; hop < MAX_HOPS && frontier.length; hop++) {
    const next: string[] = []
    for (const p of frontier) {
      for (const l of links) {
        if (l.part === self || !isInsideFold(l.at, p) || (l.tree && p.length === l.at.length)) continue
        found ??= { paths: [] }
        if (l.to === null) {
          found.unknown ??= l
          continue
        }
        for (const t of l.to) {
          const rest = p.slice(l.at.length)
          const mapped = t === "/" ? rest || "/" : t + rest
          const real = realpath ? realpath(mapped) : mapped
          seen ??= new Set<string>([path])
          for (const m of real === mapped ? [mapped] : [mapped, real]) {
            if (seen.has(m) || seen.size > MAX_PATHS) continue
            seen.add(m)
            found.paths.push(m)
            next.push(m)
          }
        }
      }
    }
    frontier = next
  }
  return found
}
