// split and csplit write their pieces as PREFIX followed by a suffix they make (`xaa`, `xx00`, or what
// -a/--additional-suffix/-b/--suffix-format make of it): `split -n l/7 -a1 f .git/confi` writes .git/config.
// The write is judged as PREFIX* (every name the suffixes can make), so protected paths, startup files and
// folders outside the workspace are seen. Pure.
import type { Finding } from "./raw.ts"
import type { View } from "./table.ts"
import type { Word } from "./word.ts"
import { lazyOptions, readOptions } from "./getopt.ts"
import { writeVerdict } from "./paths.ts"

const SPLIT = lazyOptions({
  short: "a:b:C:l:n:t:dexu",
  long: "suffix-length= additional-suffix= bytes= line-bytes= lines= number= separator= numeric-suffixes? hex-suffixes? elide-empty-files unbuffered verbose filter= help version",
})
const CSPLIT = lazyOptions({ short: "b:f:n:kszq", long: "suffix-format= prefix= digits= keep-files suppress-matched quiet silent elide-empty-files help version" })

/** split [FILE [PREFIX]] and csplit -f PREFIX FILE PATTERN...: the pieces they write. */
export function splitPieces(v: View, out: Finding[]): void {
  const csplit = v.program === "csplit"
  const r = readOptions(v.args, csplit ? CSPLIT() : SPLIT())
  const given = csplit ? r.valued.findLast((o) => o.name === "f" || o.name === "prefix")?.value : r.operands[1]
  if (csplit && r.valued.some((o) => (o.name === "f" || o.name === "prefix") && o.value === undefined)) {
    out.push({ name: "write-files", level: "high", reason: "csplit writes its pieces under a prefix not known before it runs" })
  }
  // the default prefixes write in the current directory (xaa, xx00)
  const prefix = given?.value ?? (given ? undefined : csplit ? "xx" : "x")
  if (prefix === undefined) {
    out.push({ name: "write-files", level: "high", reason: `${v.program} writes its pieces under the prefix ${given?.text ?? ""}, not known before it runs` })
    return
  }
  const base: Word = given ?? { text: prefix, value: prefix, expanded: false, hollow: false, glob: false, tilde: false }
  // the policy judges the prefix and the folder it is in (`.git/confi` writes into .git): a suffix made at
  // run time completes the name, so the folder is what is known to be written
  const slash = prefix.lastIndexOf("/")
  v.writes.push(base)
  if (slash > 0) v.writes.push({ ...base, value: prefix.slice(0, slash), text: base.text.slice(0, Math.max(1, base.text.lastIndexOf("/"))), glob: false })
  // csplit's suffix format is printf's: its text is part of the name, `/` and `..` too (`-b /../.git/config%d`)
  const format = csplit ? r.valued.findLast((o) => o.name === "b" || o.name === "suffix-format")?.value : undefined
  if (format && format.value === undefined) out.push({ name: "write-files", level: "high", reason: `csplit writes its pieces under the suffix format ${format.text}, not known before it runs` })
  const made = format?.value?.replace(/%[-#0-9 +'.lhjzt]*[a-zA-Z]/g, "*").replace(/%%/g, "%")
  if (made !== undefined && made.includes("/")) v.writes.push({ ...base, value: `${prefix}${made}`, text: `${base.text}${made}`, glob: true })
  // here: every name the suffixes can make (PREFIX*), for startup files and places outside the workspace
  const tail = made !== undefined && made.includes("/") ? made : "*"
  const pieces: Word = { ...base, value: `${prefix}${tail}`, text: `${base.text}${tail}`, glob: true }
  const verdict = writeVerdict(pieces, v.part.cwd, v.place)
  out.push({ name: "write-files", level: verdict?.level ?? "medium", reason: `${v.program} writes its pieces as ${pieces.text}${verdict ? `: ${verdict.reason}` : ""}` })
}
