// The files a single-file compressor writes: gzip/gunzip, bzip2/bunzip2, xz/unxz/lzma/unlzma,
// zstd/unzstd, lz4/unlz4. Unpacking `NAME.gz` writes NAME (the suffix, or `-S SUF`, taken off),
// packing NAME writes NAME.gz, zstd's `-o FILE` and `--output-dir-flat/-mirror DIR` name where it
// writes, gzip's `-N` writes the name stored in the archive (not in the command: high), `-r DIR` writes
// below DIR, `--files FILE`/`--filelist FILE` read the names from a file (high). `-c`/`-t`/`-l` write
// to stdout or nothing. Each output is judged as a write: `gunzip .git/config.gz` writes .git/config. Pure.
import type { Finding } from "./raw.ts"
import type { View } from "./table.ts"
import type { Word } from "./word.ts"
import { lazyOptions, readOptions, type Compiled } from "./getopt.ts"
import { writeVerdict } from "./paths.ts"

const MODES = "d decompress uncompress z compress c stdout to-stdout t test l list N name n no-name S suffix o r recursive output-dir-flat output-dir-mirror filelist files files0 m multiple"

const gzipOptions = lazyOptions({
  short: "0123456789cdfhklLnNqrS:tvV",
  long: "stdout to-stdout decompress uncompress force help keep list license no-name name quiet recursive rsyncable suffix= synchronous test verbose version fast best",
  writes: MODES,
})
const bzipOptions = lazyOptions({
  short: "0123456789cdfhkLqstvVz",
  long: "stdout decompress compress force help keep license quiet small test verbose version fast best",
  writes: MODES,
})
const xzOptions = lazyOptions({
  short: "0123456789cC:dehF:klM:nqQS:tT:vVz",
  long: "compress decompress uncompress test list keep force stdout to-stdout single-stream no-sparse suffix= files? files0? format= check= ignore-check threads= memlimit-compress= memlimit-decompress= memlimit-mt-decompress= memlimit= memory= no-adjust extreme fast best block-size= block-list= flush-timeout= quiet verbose robot info-memory help long-help version no-warn lzma1= lzma2= x86? arm? armthumb? arm64? powerpc? ia64? sparc? riscv? delta? synchronous",
  writes: MODES,
})
const zstdOptions = lazyOptions({
  short: "0123456789cdD:fhHklmo:qrtT:vVzB:M:b:e:i:S",
  long: "stdout decompress uncompress compress force help keep rm list test quiet verbose version ultra fast? long? adapt? memory= memlimit= memlimit-decompress= threads= single-thread auto-threads= rsyncable content-size no-content-size check no-check sparse no-sparse no-dictID format= zstd= stream-size= size-hint= target-compressed-block-size= patch-from= output-dir-flat= output-dir-mirror= filelist= exclude-compressed no-progress progress trace= train train-cover? train-fastcover? train-legacy? maxdict= dictID= split= priority= mode= show-default-cparams pass-through no-pass-through row-match-finder= no-row-match-finder max= asyncio no-asyncio",
  writes: MODES,
})
const lz4Options = lazyOptions({
  short: "0123456789cdD:fhHklmqrtvVzB:b:e:i:",
  long: "stdout to-stdout decompress uncompress compress force help keep rm list test quiet verbose version multiple fast? best content-size no-content-size frame-crc no-frame-crc sparse no-sparse favor-decSpeed",
  writes: MODES,
})

interface Family {
  options: () => Compiled
  /** the program unpacks without -d */
  unpacks: boolean
  /** the suffix it adds when packing */
  suffix: string
}

const FAMILIES: Record<string, Family> = {
  gzip: { options: gzipOptions, unpacks: false, suffix: ".gz" },
  gunzip: { options: gzipOptions, unpacks: true, suffix: ".gz" },
  pigz: { options: gzipOptions, unpacks: false, suffix: ".gz" },
  unpigz: { options: gzipOptions, unpacks: true, suffix: ".gz" },
  bzip2: { options: bzipOptions, unpacks: false, suffix: ".bz2" },
  bunzip2: { options: bzipOptions, unpacks: true, suffix: ".bz2" },
  xz: { options: xzOptions, unpacks: false, suffix: ".xz" },
  unxz: { options: xzOptions, unpacks: true, suffix: ".xz" },
  lzma: { options: xzOptions, unpacks: false, suffix: ".lzma" },
  unlzma: { options: xzOptions, unpacks: true, suffix: ".lzma" },
  zstd: { options: zstdOptions, unpacks: false, suffix: ".zst" },
  unzstd: { options: zstdOptions, unpacks: true, suffix: ".zst" },
  lz4: { options: lz4Options, unpacks: false, suffix: ".lz4" },
  unlz4: { options: lz4Options, unpacks: true, suffix: ".lz4" },
}

/** The compressors judged here. */
export const COMPRESSORS = Object.keys(FAMILIES)

// every suffix any of them takes off when unpacking (more than one program's list: a name is judged
// under each way it may be unpacked), and the `.t*` ones that leave `.tar`
const SUFFIXES = [".gz", "-gz", ".z", "-z", "_z", ".Z", ".xz", ".lzma", ".lz", ".zst", ".bz2", ".bz", ".lz4"]
const TARS = [".tgz", ".taz", ".txz", ".tlz", ".tzst", ".tbz2", ".tbz", ".tlz4"]

/** Judge the files a compressor writes (see the file's head). */
export function compressorWrites(v: View, out: Finding[]): void {
  const family = FAMILIES[v.program]
  if (!family) return
  const r = readOptions(v.args, family.options())
  if (r.unknown) out.push({ name: "unknown-option", level: "medium", reason: `${v.program} ${r.unknown}: an option ccode does not know may name a file it writes` })
  let unpack = family.unpacks
  let stdout = false
  let stored = false
  let recursive = false
  let multiple = false
  const suffixes: Word[] = []
  const outputs: Word[] = []
  const dirs: Word[] = []
  for (const o of r.valued) {
    const n = o.name
    if (n === "d" || n === "decompress" || n === "uncompress") unpack = true
    else if (n === "z" || n === "compress") unpack = false
    else if (n === "c" || n === "stdout" || n === "to-stdout" || n === "t" || n === "test" || n === "l" || n === "list") stdout = true
    else if (n === "N" || n === "name") stored = true
    else if (n === "n" || n === "no-name") stored = false
    else if (n === "r" || n === "recursive") recursive = true
    else if (n === "m" || n === "multiple") multiple = true
    else if ((n === "S" || n === "suffix") && o.value) suffixes.push(o.value)
    else if (n === "o" && o.value) outputs.push(o.value)
    else if ((n === "output-dir-flat" || n === "output-dir-mirror") && o.value) dirs.push(o.value)
    else if (n === "filelist" || n === "files" || n === "files0") {
      out.push({ name: "write-files", level: "high", reason: `${v.program} ${o.written} reads the names of the files it writes from a file the command does not show` })
    }
  }
  // zstd reads `-o` anywhere in a bundle and takes the next word (`-of F`): a letter after it is not its value
  for (const a of v.values) if ((v.program === "zstd" || v.program === "unzstd") && /^-[^-]*o./.test(a)) out.push({ name: "write-files", level: "high", reason: `${v.program} ${a}: -o inside a bundle takes the next word as the file it writes` })
  const targets: Word[] = [...outputs, ...dirs]
  let operands = r.operands.filter((w) => w.value !== "-")
  // lz4 IN OUT: the second operand is the file written
  if ((v.program === "lz4" || v.program === "unlz4") && !multiple && operands.length === 2) {
    targets.push(operands[1]!)
    operands = []
  }
  if (!stdout || outputs.length > 0 || dirs.length > 0) {
    for (const w of operands) {
      if (recursive) targets.push(w)
      if (outputs.length > 0) continue
      const names = unpack ? unpacked(w, suffixes, v.program) : [suffixed(w, suffixes[0]?.value ?? family.suffix)]
      for (const name of names) targets.push(dirs.length > 0 ? { ...name, text: baseName(name.text), value: name.value && baseName(name.value) } : name)
      if (unpack && stored && !stdout) {
        out.push({ name: "write-files", level: "high", reason: `${v.program} ${"-N"} writes ${w.text} under the name stored in the archive, which the command does not show` })
      }
    }
  }
  for (const s of suffixes) if (s.value === undefined) out.push({ name: "write-files", level: "high", reason: `${v.program} -S ${s.text}: the suffix is not static, so the name it writes is not known` })
  for (const t of targets) {
    const placed = dirs.length > 0 && !outputs.includes(t) && !dirs.includes(t) ? dirs.map((d) => join(d, t)) : [t]
    for (const w of placed) {
      v.writes.push(w)
      const verdict = writeVerdict(w, v.part.cwd, v.place)
      if (verdict) out.push({ name: "write-files", level: verdict.level, reason: `${v.program} ${unpack ? "unpacks to" : "packs to"}: ${verdict.reason}` })
    }
  }
}

// NAME without each suffix it may lose (`-S SUF` first), `.tgz` -> `.tar`; bzip2 writes NAME.out otherwise
function unpacked(w: Word, given: Word[], program: string): Word[] {
  const names: Word[] = []
  const value = w.value ?? w.text
  for (const s of [...given.map((g) => g.value ?? ""), ...SUFFIXES]) {
    if (s && value.length > s.length && value.endsWith(s)) names.push(cut(w, s.length, ""))
  }
  for (const s of TARS) if (value.length > s.length && value.endsWith(s)) names.push(cut(w, s.length, ".tar"))
  if (names.length === 0 && program.includes("bz")) names.push(suffixed(w, ".out"))
  return names
}

function cut(w: Word, n: number, add: string): Word {
  const text = w.text.length > n ? w.text.slice(0, -n) + add : w.text
  return { ...w, text, value: w.value === undefined ? undefined : w.value.slice(0, -n) + add }
}

function suffixed(w: Word, s: string): Word {
  return { ...w, text: w.text + s, value: w.value === undefined ? undefined : w.value + s }
}

function baseName(p: string): string {
  return p.slice(p.lastIndexOf("/") + 1)
}

function join(dir: Word, w: Word): Word {
  return { ...dir, text: `${dir.text}/${w.text}`, value: dir.value === undefined || w.value === undefined ? undefined : `${dir.value}/${w.value}` }
}
