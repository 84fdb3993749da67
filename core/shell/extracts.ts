// What tar, bsdtar and unzip write: tar -c its archive, an extraction the folder it lands in (-C/-d,
// else the one it runs in), members renamed on the way (renames.ts), and names not known before it
// runs (an archive from stdin; one on disk is listed by the caller: unpacks.ts). Pure.
import type { Finding } from "./raw.ts"
import type { View } from "./table.ts"
import { writeVerdict } from "./paths.ts"
import { resolveWord } from "./cwd.ts"
import { literalWord } from "./word.ts"
import { isInside } from "../base/paths.ts"
import { optionTarget } from "./optiontarget.ts"
import { memberRenames } from "./renames.ts"
import { unpackOf } from "./unpacks.ts"
import { workingFolder } from "./workfolder.ts"

const TAR_FILE = optionTarget(["--file"])
const TAR_DIRECTORY = optionTarget(["-C", "--directory"])
const UNZIP_DIRECTORY = optionTarget(["-d"])

/** tar writes its archive (-c -f FILE) or the files it extracts (-x into -C DIR, else the cwd). */
export function tarTargets(v: View, out: Finding[]): void {
  const first = v.values[0] ?? ""
  const old = /^[a-zA-Z]+$/.test(first) ? first : "" // `tar xzf a.tar`: the first word is a bundle of flags
  const has = (short: string, long: string) => v.canon.flags.has(`-${short}`) || v.canon.flags.has(`--${long}`) || old.includes(short)
  if (has("c", "create")) {
    // the archive is the word after a flag bundle ending in f (`-czf out.tgz`, `czf out.tgz`), or --file=
    const at = v.values.findIndex((a, i) => (i === 0 && old.endsWith("f")) || /^-[a-zA-Z]*f$/.test(a))
    const target = at >= 0 ? v.args[at + 1] : undefined
    const verdict = target ? writeVerdict(target, v.part.cwd, v.place) : undefined
    if (verdict) out.push({ name: "write-files", level: verdict.level, reason: verdict.reason })
    TAR_FILE(v, out)
  }
  const extracting = has("x", "extract") || v.canon.flags.has("--get") || (v.program === "bsdtar" && v.values.some((a) => /^-[A-Za-z]*x/.test(a)))
  memberRenames(v, out, extracting)
  if (extracting) {
    unlisted(v, out)
    const before = out.length
    TAR_DIRECTORY(v, out)
    oneTopLevel(v, out)
    if (out.length === before) workingFolder(v, out, "extracts files into the current directory")
  }
}

// GNU tar --one-top-level[=DIR] moves every member below DIR (the archive's base name without one)
function oneTopLevel(v: View, out: Finding[]): void {
  if (!v.args.some((a) => /^--one-t/.test(a.value ?? a.text))) return
  const top = unpackOf(v.part)?.top
  if (!top) {
    out.push({ name: "write-files", level: "high", reason: `${v.program} --one-top-level moves every member into a folder not known before it runs: .git/hooks, .claude or a startup folder is not ruled out` })
    return
  }
  v.writes.push(top)
  const verdict = writeVerdict(top, v.part.cwd, v.place)
  if (verdict) out.push({ name: "write-files", level: verdict.level, reason: `${verdict.reason} (--one-top-level moves every member there)` })
}

// an archive or diff read from stdin (`| tar x`, `-f -`, `git diff | patch -p1`) or a --strip-components
// not static: the names written are not known (one on disk is listed by the caller,
// core/policy/ondisk.ts): high where a .git/hooks, .claude or startup file among them matters
export function unlisted(v: View, out: Finding[]): void {
  const u = unpackOf(v.part)
  if (!u || (u.archive && u.strip !== undefined)) return
  const into = resolveWord(u.into ?? literalWord("."), v.part.cwd, v.place.home)
  if (into && into.every((p) => !isInside(v.place.workspace, p) && !isInside(v.place.home, p))) return
  const what = u.diff ? "the diff" : "the archive"
  const why = u.archive ? `${u.diff ? "-p" : "--strip-components"} is not static` : `it reads ${what} from its input`
  out.push({ name: "write-files", level: "high", reason: `${v.program === "git" ? "git apply" : v.program} ${u.diff ? "patches" : "extracts"} into ${u.into?.text ?? "the current directory"} names not known before it runs (${why}): a .git/hooks, .claude or startup file among them is not ruled out` })
}

/** unzip extracts into -d DIR, else the folder it runs in (not when it only lists, tests or prints). */
export function unzipTargets(v: View, out: Finding[]): void {
  const before = out.length
  UNZIP_DIRECTORY(v, out)
  // -l/-v/-t/-z list or test, -p/-c print to stdout, -Z is zipinfo: nothing is written
  const writesNone = v.values.some((a) => /^-[a-zA-Z]*[lvtzpcZ]/.test(a))
  if (out.length === before && !writesNone && v.values.some((a) => !a.startsWith("-"))) workingFolder(v, out, "extracts files into the current directory")
}

/** Extractors whose archives ccode does not list (7z, unrar, ar, cpio -i, pax -r): the names they write
 *  are not known, high when they land in the workspace or the home (7z -oDIR, unrar's DIR/ operand, cpio
 *  -D DIR, else the folder it runs in). */
export function unlistedExtract(v: View, out: Finding[]): void {
  const p = v.program
  const ops = v.values.filter((a) => !a.startsWith("-"))
  const extracting = p === "7z" || p === "7za" || p === "7zz" ? /^[xe]$/.test(ops[0] ?? "")
    : p === "unrar" ? /^[xe]$/.test(ops[0] ?? "")
    : p === "ar" ? /^-?[a-zA-Z]*x/.test(v.values[0] ?? "")
    : p === "cpio" ? v.values.some((a) => /^-[a-zA-Z]*i|^--ext/.test(a))
    : p === "pax" ? v.values.some((a) => /^-[a-zA-Z]*r/.test(a))
    : false
  if (!extracting) return
  const at = v.args.findIndex((a, i) => /^-o./.test(v.values[i]!) && p.startsWith("7z"))
  const dirAt = p === "cpio" ? v.values.findIndex((a) => a === "-D" || a === "--directory") : -1
  const into = at >= 0 ? { ...v.args[at]!, text: v.values[at]!.slice(2), value: v.args[at]!.value?.slice(2), tilde: false }
    : dirAt >= 0 ? v.args[dirAt + 1]
    : p === "unrar" && ops.length > 2 && ops[ops.length - 1]!.endsWith("/") ? v.args[v.values.lastIndexOf(ops[ops.length - 1]!)]
    : literalWord(".")
  const places = into ? resolveWord(into, v.part.cwd, v.place.home) : null
  if (places && places.every((d) => !isInside(v.place.workspace, d) && !isInside(v.place.home, d))) return
  out.push({ name: "write-files", level: "high", reason: `${p} extracts into ${into?.text ?? "a folder not known"} names ccode does not list (it reads only tar, tar.gz and zip archives): a .git/hooks, .claude or startup file among them is not ruled out` })
}
