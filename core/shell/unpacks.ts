// The archive an extraction unpacks and the folder its members land in: `tar -xf A [-C DIR]` (old-style
// `tar xzf A`, `--file=A`, `--directory=DIR`, any unique prefix), bsdtar likewise, `unzip A [-d DIR]`;
// and the diff a patcher applies: `patch [-d DIR] [-pN] < F` / `-i F`, `git apply [--directory=D] F...`,
// `git am MBOX...` (its mails' diffs).
// The member names are in the file, not the command: the archive is reported as a touched path marked
// `unpacks`, and the caller (core/policy/ondisk.ts) lists its members on disk and judges each as a
// write (`tar xf x.tar` whose members are .git/hooks/* writes .git/hooks). From stdin (`| tar x`,
// `-f -`) the names are not known: the caller is told so. Pure.
import type { Part } from "./part.ts"
import type { TouchedPath } from "./types.ts"
import type { Word } from "./word.ts"
import { resolveWord } from "./cwd.ts"
import { readOptions } from "./getopt.ts"
import { patchOptions } from "./patchopts.ts"

export interface Unpack {
  /** the archive's words; undefined: read from stdin */
  archive: Word | undefined
  into: Word | undefined
  /** --strip-components=N (patch -pN); undefined when it is not static, -1 any (patch without -p) */
  strip: number | undefined
  /** a diff whose target names are written, not an archive */
  diff?: true
  /** more diffs (git apply A B) */
  more?: Word[]
  /** tar -P/--absolute-names, unzip -:: a member named `/x` lands at /x (`..` is kept) */
  absolute?: true
  /** GNU tar --one-top-level[=DIR]: the folder every member is moved below (already in `into`) */
  top?: Word
}

/** What an extraction command unpacks, or undefined when it is not one (or the program is not tar/unzip). */
export function unpackOf(part: Part): Unpack | undefined {
  const p = part.program
  if (p === "tar" || p === "gtar" || p === "bsdtar") {
    const u = tar(part.words.slice(1))
    // `tar xf - < a.tar`: the archive is the file given as input
    if (u && !u.archive && part.stdin?.kind === "file") u.archive = part.stdin.target
    return u
  }
  if (p === "unzip") return unzip(part.words.slice(1))
  if (p === "patch") {
    const u = patchInput(part.words.slice(1))
    if (u && !u.archive && part.stdin?.kind === "file") u.archive = part.stdin.target
    return u
  }
  if (p === "git" && part.git && part.words[part.git.sub]?.value === "apply") return gitApply(part.words.slice(part.git.sub + 1))
  // git am MBOX...: the mails' diffs are applied to the work tree (-p1 by default); from stdin, or going on
  // with a stopped session (--continue, --skip), the diff is not known
  if (p === "git" && part.git && part.words[part.git.sub]?.value === "am") {
    const args = part.words.slice(part.git.sub + 1)
    if (args.some((w) => /^--(abort|quit|show-current-patch)/.test(w.value ?? ""))) return undefined
    const u = gitApply(args.filter((w) => !/^--(patch-format|whitespace|exclude|include|quoted-cr|empty|resolvemsg)$/.test(w.value ?? "")))
    if (args.some((w) => /^(--continue|--skip|--resolved|-r)$/.test(w.value ?? ""))) return { ...u, archive: undefined, more: [] }
    if (!u.archive && !(u.more ?? []).length && part.stdin?.kind === "file") u.archive = part.stdin.target
    return u
  }
  return undefined
}

// what every part that unpacks nothing gets: shared, never added to
const NO_PATHS: TouchedPath[] = []

/** The archive as a touched path marked with where its members land (none from stdin or not static). */
export function unpackReads(part: Part, home: string, wroteBefore = false): TouchedPath[] {
  const u = unpackOf(part)
  if (!u?.archive || u.strip === undefined) return NO_PATHS
  const into = resolveWord(u.into ?? dotWord(u.archive), part.cwd, home)
  if (!into || into.length !== 1) return []
  const out: TouchedPath[] = []
  for (const w of [u.archive, ...(u.more ?? [])]) {
    const archive = resolveWord(w, part.cwd, home)
    if (archive?.length !== 1) continue
    const unpacks: NonNullable<TouchedPath["unpacks"]> = { into: into[0]!, strip: u.strip }
    if (u.diff) unpacks.diff = true
    if (u.absolute) unpacks.absolute = true
    if (wroteBefore) unpacks.later = true
    out.push({ path: archive[0]!, access: "read", unpacks })
  }
  return out
}

function dotWord(like: Word): Word {
  return { ...like, text: ".", value: ".", tilde: false, glob: false }
}

const LONG_VALUED = ["file", "directory", "strip-components", "transform", "xform", "exclude", "files-from", "exclude-from", "to-command", "use-compress-program", "owner", "group", "mode", "mtime", "format", "blocking-factor", "record-size", "newer", "after-date", "label", "tape-length", "info-script", "new-volume-script", "rsh-command", "checkpoint-action", "index-file", "volno-file", "warning", "occurrence", "backup", "suffix", "quoting-style", "xattrs-include", "xattrs-exclude"]

function tar(args: Word[]): Unpack | undefined {
  let extract = false
  let archive: Word | undefined
  let into: Word | undefined
  let strip: number | undefined = 0
  let absolute = false
  // --one-top-level: "" without a value (the archive's base name)
  let top: Word | undefined
  const first = args[0]?.value ?? ""
  let i = 0
  if (/^[a-zA-Z]+$/.test(first)) {
    // `tar xzf A`: the letters' values follow in order (f, C, b, ... take one each)
    extract = first.includes("x")
    absolute = first.includes("P")
    let next = 1
    for (const c of first) {
      if (!"fCbHKLNTVX".includes(c)) continue
      const w = args[next++]
      if (c === "f") archive = w
      else if (c === "C") into = w
    }
    i = next
  }
  for (; i < args.length; i++) {
    const w = args[i]!
    const v = w.value
    if (v === undefined) continue
    if (v === "--") break
    if (v.startsWith("--")) {
      const eq = v.indexOf("=")
      const given = v.slice(2, eq < 0 ? undefined : eq)
      const name = LONG_VALUED.find((n) => n === given) ?? (given.length >= 2 ? LONG_VALUED.find((n) => n.startsWith(given)) : undefined)
      if (/^(ex|ext|extr|extra|extrac|extract|g|ge|get)$/.test(given)) extract = true
      if (given.length >= 2 && "absolute-names".startsWith(given)) absolute = true
      // an optional value: only `--one-top-level=DIR` gives one (`--one-t` is its shortest spelling)
      if (given.length >= 5 && "one-top-level".startsWith(given)) top = { ...w, text: eq < 0 ? "" : v.slice(eq + 1), value: eq < 0 ? "" : v.slice(eq + 1), tilde: false }
      if (!name) continue
      const value = eq >= 0 ? { ...w, text: v.slice(eq + 1), value: v.slice(eq + 1), tilde: false } : args[++i]
      if (name === "file") archive = value
      else if (name === "directory") into = value
      else if (name === "strip-components") strip = count(value)
      continue
    }
    if (!v.startsWith("-") || v === "-") continue
    for (let j = 1; j < v.length; j++) {
      const c = v[j]!
      if (c === "x") extract = true
      if (c === "P") absolute = true
      if (!"fCbHKLNTVXgI".includes(c)) continue
      const value = j + 1 < v.length ? { ...w, text: v.slice(j + 1), value: v.slice(j + 1), tilde: false } : args[++i]
      if (c === "f") archive = value
      else if (c === "C") into = value
      break
    }
  }
  if (!extract) return undefined
  const file = archive?.value === "-" ? undefined : archive ?? undefined
  const landing = top ? topLevel(top, into, file) : into
  // a folder not known: where the members land is not either
  return { archive: file, into: landing, strip: top && !landing ? undefined : strip, ...(absolute ? { absolute: true as const } : {}), ...(top && landing ? { top: landing } : {}) }
}

const COMPRESSED = /(?:\.tar)?\.(?:gz|tgz|taz|z|bz2|tbz|tbz2|tz2|xz|txz|lz|lzma|tlz|lzo|zst|tzst)$|\.tar$/i

// --one-top-level=DIR below -C (or the cwd); without DIR the archive's base name less its suffixes;
// undefined when a part is not static (the members' place is then not known)
function topLevel(top: Word, into: Word | undefined, archive: Word | undefined): Word | undefined {
  let dir = top.value
  if (dir === "") {
    const name = archive?.value?.split("/").pop()
    dir = name === undefined ? undefined : name.replace(COMPRESSED, "")
  }
  if (dir === undefined || dir === "" || (into && into.value === undefined)) return undefined
  const value = dir.startsWith("/") || !into ? dir : `${into.value}/${dir}`
  return { ...(into ?? top), text: value, value, tilde: false, glob: false }
}

function unzip(args: Word[]): Unpack | undefined {
  let absolute = false
  let archive: Word | undefined
  let into: Word | undefined
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value
    if (v === undefined) return undefined
    if (v === "-d") into = args[++i]
    else if (v.startsWith("-d")) into = { ...args[i]!, text: v.slice(2), value: v.slice(2), tilde: false }
    else if (/^-[a-zA-Z]*[lvtzpcZ]/.test(v)) return undefined
    else if (/^-[a-zA-Z]*:/.test(v)) absolute = true
    else if (!v.startsWith("-") && !archive) archive = args[i]
  }
  return archive ? { archive, into, strip: 0, ...(absolute ? { absolute: true as const } : {}) } : undefined
}

function count(w: Word | undefined): number | undefined {
  return w?.value !== undefined && /^\d+$/.test(w.value) ? Number(w.value) : undefined
}

// patch's own options (patchopts.ts reads them for the files it names): the diff is -i FILE, else the
// second operand, else stdin; -pN strips N leading folders (without -p GNU patch may keep any suffix)
function patchInput(args: Word[]): Unpack | undefined {
  const r = readOptions(args, patchOptions())
  const input = r.valued.findLast((o) => o.name === "i" || o.name === "input")?.value ?? r.operands[1]
  const p = r.valued.findLast((o) => o.name === "p" || o.name === "strip")
  const into = r.valued.findLast((o) => o.name === "d" || o.name === "directory")?.value
  return { archive: input?.value === "-" ? undefined : input, into, strip: p ? count(p.value) : -1, diff: true }
}

// git apply's diffs (every operand; none: stdin), -pN (default 1), --directory=D (any prefix) in front of every name
function gitApply(args: Word[]): Unpack {
  const files: Word[] = []
  let strip: number | undefined = 1
  let into: Word | undefined
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!
    const v = w.value
    if (v === undefined) continue
    if (v === "-p") strip = count(args[++i])
    else if (/^-p./.test(v)) strip = count({ ...w, value: v.slice(2) })
    else if (/^--dir/.test(v)) into = v.includes("=") ? { ...w, text: v.slice(v.indexOf("=") + 1), value: v.slice(v.indexOf("=") + 1), tilde: false } : args[++i]
    else if (/^-(C|-exclude|-include|-whitespace|-build-fake-ancestor)$/.test(v)) i++
    else if (!v.startsWith("-") || v === "-") files.push(w)
  }
  const real = files.filter((f) => f.value !== "-")
  return { archive: real.length === files.length ? real[0] : undefined, more: real.slice(1), into, strip, diff: true }
}
