// Extractors and decompressors that print what they unpack (`unzip -p A`, `unzip -c A`, `gunzip -c A`,
// `gzip -dc A`, `zcat A`, `bzcat`, `xzcat`, `zstdcat`): the archive is read as `cat` of it is, so a member
// named like a credential (or an archive named like one) is judged on disk (core/policy/archiveread.ts).
// Pure: the words only.
import type { Part } from "./part.ts"
import type { TouchedPath } from "./types.ts"
import { resolveWord } from "./cwd.ts"

// always to stdout; and the compressors that do with -c/--stdout (and unpack with -d, or by name)
const CATS = new Set(["zcat", "gzcat", "bzcat", "xzcat", "lzcat", "zstdcat", "lz4cat", "funzip"])
const UNPACKERS = new Set(["gunzip", "unpigz", "bunzip2", "unxz", "unlzma", "unzstd", "unlz4"])
const PACKERS = new Set(["gzip", "pigz", "bzip2", "xz", "lzma", "zstd", "lz4"])

/** The archives a printing extraction reads (absolute), as plain reads. */
export function archivePrints(part: Part, home: string): TouchedPath[] {
  const p = part.program
  if (!CATS.has(p) && !UNPACKERS.has(p) && !PACKERS.has(p) && p !== "unzip") return []
  const args = part.words.slice(1)
  const flags = args.map((w) => w.value ?? "").filter((v) => v.startsWith("-") && v !== "-")
  const short = (letters: string) => flags.some((f) => /^-[^-]/.test(f) && [...letters].some((l) => f.includes(l)))
  const long = (...names: string[]) => flags.some((f) => names.some((n) => f.length > 3 && `--${n}`.startsWith(f.split("=")[0]!)))
  const prints = CATS.has(p) || (p === "unzip" ? short("pc") : (short("c") || long("stdout", "to-stdout")) && (UNPACKERS.has(p) || short("d") || long("decompress", "uncompress")))
  if (!prints) return []
  const operands = args.filter((w) => w.value === undefined || !w.value.startsWith("-") || w.value === "-")
  // unzip: the archive is the first operand (the rest name members)
  const archives = p === "unzip" ? operands.slice(0, 1) : operands
  const out: TouchedPath[] = []
  for (const w of archives) {
    if (w.value === "-") continue
    for (const path of resolveWord(w, part.cwd, home) ?? []) out.push(w.glob ? { path, access: "read", glob: true } : { path, access: "read" })
  }
  return out
}
