// Two ways cp/ln/mv/install write a file their destination does not name. A hard link (`ln SRC DEST`
// without -s, `cp -l`/`--link`) is another name for SRC: a later write to DEST writes SRC, so SRC is
// judged as written (`ln .git/config h` then `>> h` writes .git/config). A backup (`-b`, `--backup`,
// `-S SUF`, `--suffix=SUF`) renames the existing DEST to DEST+SUF (SIMPLE_BACKUP_SUFFIX, else `~`):
// `cp -b -S rc x .bash` writes .bashrc. Pure.
import type { Finding } from "./raw.ts"
import type { View } from "./table.ts"
import type { Word } from "./word.ts"
import { readOptions } from "./getopt.ts"
import { copyOptions, intoDirectory, landings } from "./copyopts.ts"
import { writeVerdict } from "./paths.ts"

type Copier = "cp" | "ln" | "mv" | "install"

/** Judge the hard link's source and the backup names as writes (see the file's head). */
export function linksAndBackups(v: View, out: Finding[]): void {
  const program = v.program as Copier
  // without an option only ln makes a hard link (the usual `cp a b`, `mv a b` pay nothing more)
  if (program !== "ln" && !v.values.some((a) => a.charCodeAt(0) === 45)) return
  const r = readOptions(v.args, copyOptions(program))
  const words = v.values
  const into = intoDirectory(program, v.args)
  const hard = (program === "ln" && !words.some((a) => /^-[A-Za-z]*s|^--sy/.test(a))) || (program === "cp" && words.some((a) => /^-[A-Za-z]*l|^--li/.test(a)))
  if (hard) {
    const sources = into ? r.operands : r.operands.length === 1 ? r.operands : r.operands.slice(0, -1)
    for (const s of sources) judge(v, out, s, `${program} makes a hard link to ${s.text}: a write through the link writes it`)
  }
  const suffixOption = r.valued.findLast((o) => o.name === "S" || o.name === "suffix")
  const backup = suffixOption !== undefined || words.some((a) => /^-[A-Za-z]*b|^--b/.test(a))
  if (!backup) return
  const assigned = v.part.assignments.findLast((a) => a.name === "SIMPLE_BACKUP_SUFFIX")?.value
  const suffix: Word | undefined = suffixOption?.value ?? assigned ?? (v.place.env?.SIMPLE_BACKUP_SUFFIX !== undefined ? { text: "$SIMPLE_BACKUP_SUFFIX", value: v.place.env.SIMPLE_BACKUP_SUFFIX, expanded: true, hollow: false, glob: false, tilde: false } : undefined)
  if (suffix && suffix.value === undefined) {
    out.push({ name: "write-files", level: "high", reason: `${program} backs up its destination under the suffix ${suffix.text}, not known before it runs` })
    return
  }
  const s = suffix?.value ?? "~"
  const dests = into ? into.writes : landings(program, v.args).writes
  for (const d of dests) {
    if (d.value === undefined) continue
    judge(v, out, { ...d, text: d.text + s, value: d.value + s }, `${program} backs up ${d.text} as ${d.text}${s}`)
  }
}

function judge(v: View, out: Finding[], w: Word, what: string): void {
  v.writes.push(w)
  const verdict = writeVerdict(w, v.part.cwd, v.place)
  if (verdict) out.push({ name: "write-files", level: verdict.level, reason: `${what}: ${verdict.reason}` })
}
