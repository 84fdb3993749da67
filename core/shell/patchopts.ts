// What GNU patch writes that its options and operands name: the file it is given (or -o FILE), the
// reject file (-r), backups under a prefix (-B/--prefix, -Y/--basename-prefix), and -d/--directory DIR,
// the folder it works in: every file the diff names is written below DIR, so DIR is judged as a write
// (a protected DIR such as .git/hooks is then one). Options read as getopt_long reads them (bundles
// `-sd DIR`, attached values `-d.git/hooks`, unique prefixes `--dir=`). Pure.
import type { Finding } from "./raw.ts"
import type { View } from "./table.ts"
import type { Word } from "./word.ts"
import { lazyOptions, readOptions } from "./getopt.ts"
import { writeVerdict } from "./paths.ts"
import { workingFolder } from "./workfolder.ts"

/** GNU patch's options, compiled on first use. */
export const patchOptions = lazyOptions({
  short: "bB:cd:D:eEfF:g:i:lnNo:p:r:RstTuvV:xY:z:Z",
  long: "backup prefix= suffix= basename-prefix= context directory= ifdef= ed remove-empty-files force fuzz= get= input= ignore-whitespace normal forward output= strip= reject-file= reverse quiet silent set-time set-utc unified version version-control= debug= verbose dry-run posix binary batch backup-if-mismatch no-backup-if-mismatch quoting-style= reject-format= read-only= follow-symlinks merge? help",
  writes: "d directory o output r reject-file B prefix Y basename-prefix",
})

/** patch writes the file it is given (or -o FILE), and whatever files the diff names (below -d DIR). */
export function patch(v: View, out: Finding[]): void {
  out.push({ name: "write-files", level: "medium", reason: "patches the files its diff names" })
  const r = readOptions(v.args, patchOptions())
  if (r.unknown) out.push({ name: "unknown-option", level: "medium", reason: `patch ${r.unknown}: an option ccode does not know may name a file it writes` })
  const dir = r.valued.findLast((o) => o.name === "d" || o.name === "directory")?.value
  const targets: { word: Word; what: string }[] = []
  for (const o of r.valued) if (o.effect === "write" && o.value) targets.push({ word: o.value, what: o.written })
  const file = r.operands[0]
  if (file) targets.push({ word: file, what: "" })
  // without -d the diff's files are written below the folder patch runs in
  if (!dir) workingFolder(v, out, "patches the files its diff names in the current directory")
  for (const t of targets) {
    // after -d DIR patch works in DIR: the other names are taken from there
    const word = dir && t.word !== dir ? below(dir, t.word) : t.word
    if (!word) continue
    v.writes.push(word)
    const verdict = writeVerdict(word, v.part.cwd, v.place)
    if (verdict) out.push({ name: "write-files", level: verdict.level, reason: `patch ${t.what ? `${t.what} ` : ""}writes ${verdict.reason}` })
  }
}

// NAME as patch opens it after chdir(DIR); undefined when it cannot be placed (the DIR write judges it)
function below(dir: Word, w: Word): Word | undefined {
  if (w.value?.startsWith("/")) return w
  if (dir.value === undefined || w.value === undefined) return undefined
  return { ...dir, text: `${dir.text}/${w.text}`, value: `${dir.value}/${w.value}` }
}
