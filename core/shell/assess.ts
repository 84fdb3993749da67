// Table entries that depend on what a command touches: deletes, writes, redirects, dd, find -delete,
// sed/awk programs. Each finding carries its table name so risk.overrides can change it. Pure.
import type { Finding } from "./raw.ts"
import type { View } from "./table.ts"
import { deleteVerdict, writeVerdict, criticalPath, type Verdict } from "./paths.ts"
import { resolveWord } from "./cwd.ts"
import { literalWord, type Word } from "./word.ts"
import { awk, sed, findUnknown, unknownOption } from "./textassess.ts"
import { riskRank } from "../base/risk.ts"
import { isInside } from "../base/paths.ts"
import { byName } from "./options.ts"
import { mktemp } from "./mktemp.ts"
import { intoDirectory, landings } from "./copyopts.ts"
import { jqModules } from "./jqmodules.ts"
import { NAME_PROGRAMS, variableNames } from "./builtins.ts"
import { cargo, editorScript, go, interpreter, INTERPRETERS, make, packageManager } from "./outside.ts"
import { patch } from "./patchopts.ts"
import { gitWrites } from "./gitwrites.ts"
import { netFiles } from "./netfiles.ts"
import { remoteArchive } from "./remotearchive.ts"
import { DNS_ASSESSORS } from "./dns.ts"
import { memberRenames } from "./renames.ts"
import { tarTargets, unlisted, unlistedExtract, unzipTargets } from "./extracts.ts"
import { optionTarget } from "./optiontarget.ts"
import { splitPieces } from "./splits.ts"
import { COMPRESSORS, compressorWrites } from "./compress.ts"
import { sqlite } from "./sqlite.ts"
import { linksAndBackups } from "./linkbackup.ts"
import { buildOutputs, OUTPUT_PROGRAMS } from "./buildoutputs.ts"

type Assessor = (v: View, out: Finding[]) => void

// GNU tar: where its members land, and an archive on HOST:FILE (it runs rsh)
function tarAssess(v: View, out: Finding[]): void {
  tarTargets(v, out)
  remoteArchive(v, out)
}

const OWN: Record<string, Assessor> = {
  ...Object.fromEntries(NAME_PROGRAMS.map((n) => [n, variableNames])),
  rm: removal,
  rmdir: (v, out) => eachOperand(v, out, "delete", (w) => deleteVerdict(w, v.part.cwd, v.place, false, false)),
  unlink: (v, out) => eachOperand(v, out, "delete", (w) => deleteVerdict(w, v.part.cwd, v.place, false, false)),
  shred: (v, out) => eachOperand(v, out, "delete", (w) => raise(deleteVerdict(w, v.part.cwd, v.place, true, false), "high")),
  srm: removal,
  find: findActions,
  dd: dd,
  cp: (v, out) => lastOperand(v, out),
  install: (v, out) => lastOperand(v, out),
  ln: (v, out) => lastOperand(v, out),
  mv: moves,
  touch: (v, out) => eachOperand(v, out, "write-files", (w) => writeVerdict(w, v.part.cwd, v.place)),
  mkdir: (v, out) => eachOperand(v, out, "write-files", (w) => writeVerdict(w, v.part.cwd, v.place)),
  truncate: (v, out) => eachOperand(v, out, "write-files", (w) => writeVerdict(w, v.part.cwd, v.place), ["-s", "--size", "-r", "--reference"]),
  mktemp: mktemp,
  split: splitPieces,
  csplit: splitPieces,
  jq: jqModules,
  history: historyFile,
  yq: jqModules,
  tee: (v, out) => eachOperand(v, out, "write-files", (w) => writeVerdict(w, v.part.cwd, v.place)),
  patch: (v, out) => {
    patch(v, out)
    unlisted(v, out)
  },
  ed: editorScript,
  ex: editorScript,
  ...Object.fromEntries(["npm", "pnpm", "yarn", "bun", "deno"].map((n) => [n, packageManager])),
  ...Object.fromEntries(INTERPRETERS.map((n) => [n, interpreter])),
  ...Object.fromEntries(COMPRESSORS.map((n) => [n, compressorWrites])),
  sqlite3: sqlite,
  go: go,
  cargo: cargo,
  make: make,
  chmod: permissions,
  chown: permissions,
  chgrp: permissions,
  sed: sed,
  awk: awk,
  gawk: awk,
  mawk: awk,
  nawk: awk,
  curl: (v, out) => {
    curlOutput(v, out)
    netSends(v, out)
  },
  git: (v, out) => {
    gitOutput(v, out)
    gitWrites(v, out)
    unlisted(v, out)
  },
  tar: tarAssess,
  gtar: tarAssess,
  bsdtar: tarTargets,
  ...DNS_ASSESSORS,
  pax: (v, out) => {
    memberRenames(v, out, v.values.some((a) => /^-[A-Za-z]*r/.test(a)))
    unlistedExtract(v, out)
  },
  cpio: (v, out) => {
    memberRenames(v, out, v.values.some((a) => /^-[A-Za-z]*i|^--ext/.test(a)))
    unlistedExtract(v, out)
    remoteArchive(v, out)
  },
  mt: remoteArchive,
  ...Object.fromEntries(["7z", "7za", "7zz", "unrar", "ar"].map((n) => [n, unlistedExtract])),
  unzip: unzipTargets,

  http: netSends,
  https: netSends,
  xh: netSends,
  xhs: netSends,
  wget: (v, out) => {
    wgetOutput(v, out)
    netSends(v, out)
  },
}

// build and test tools' output options (buildoutputs.ts), after the program's own assessor
export const ASSESSORS = byName<Assessor>({
  ...OWN,
  ...Object.fromEntries(OUTPUT_PROGRAMS.map((n) => [n, (v: View, out: Finding[]) => {
    OWN[n]?.(v, out)
    buildOutputs(v, out)
  }])),
})

const gitOutput = optionTarget(["--output"])
const curlOutput = optionTarget(["-o", "--output", "--output-dir", "-D", "--dump-header", "-c", "--cookie-jar", "--trace", "--trace-ascii", "--stderr", "--libcurl", "--etag-save", "--hsts", "--alt-svc"])
const wgetOutput = optionTarget(["-O", "--output-document", "-o", "--output-file", "-a", "--append-output", "-P", "--directory-prefix", "--save-cookies", "--warc-file"])

/** curl/wget sending a local file (`--url-query @F`, `-H @F`, `--netrc-file F`, `-b F`, `--post-file F`)
 *  or reading a config file that can name any (-K F, CURL_HOME=, WGETRC=): high, the file named. */
function netSends(v: View, out: Finding[]): void {
  const r = netFiles(v.part, v.place.home)
  const sent = r.files.find((f) => f.sends)
  if (sent) out.push({ name: "network-upload", level: "high", reason: `${v.program} ${sent.option} sends the local file ${sent.value.text} over the network` })
  if (r.config) out.push({ name: "network-upload", level: "high", reason: `${v.program} ${r.config}` })
}

/** rm: recursive or forced deletes of critical paths are critical; inside the workspace medium/high. */
function removal(v: View, out: Finding[]): void {
  const recursive = v.canon.flags.has("-r") || v.canon.flags.has("-R")
  const strong = recursive || v.canon.flags.has("-f")
  const targets = operandWords(v)
  if (!targets.length && v.part.appended) {
    out.push({ name: "delete", level: recursive ? "high" : "medium", reason: "deletes paths chosen at run time" })
    return
  }
  if (!targets.length) return
  let worst: Verdict | undefined
  for (const t of targets) {
    const verdict = deleteVerdict(t, v.part.cwd, v.place, strong, recursive)
    if (!worst || riskRank(verdict.level) > riskRank(worst.level)) worst = verdict
  }
  out.push({ name: worst!.level === "critical" ? "delete-critical" : recursive ? "delete-recursive" : "delete", level: worst!.level, reason: worst!.reason })
}

// find's start paths come before the first expression word; filters narrow what an action hits
const FILTERS = /^-(i?name|i?path|i?wholename|i?regex|newer.*|[acm](time|min)|empty|size|user|group|perm|links|inum|samefile|lname|uid|gid)$/

function findActions(v: View, out: Finding[]): void {
  const dynamic = v.args.find((a) => a.value === undefined && !a.placeholder)
  const strange = dynamic ? `${dynamic.text} (not static: it could be an action)` : findUnknown(v.values)
  if (strange) out.push(unknownOption("find", strange))
  const starts: Word[] = []
  let i = 0
  while (i < v.args.length && /^-[HLPDO]/.test(v.values[i]!) && !/^-(delete|exec|ok)/.test(v.values[i]!)) i++
  for (; i < v.args.length && !/^[-(!),]/.test(v.values[i]!); i++) starts.push(v.args[i]!)
  if (!starts.length) starts.push(literalWord("."))
  const filtered = v.values.some((a) => FILTERS.test(a))
  const deletes = v.values.includes("-delete") || execRuns(v, /^(rm|unlink|shred|rmdir)$/)
  if (deletes) {
    let level: Verdict = { level: "high", reason: "deletes every file find matches" }
    for (const s of starts) {
      const paths = resolveWord(s, v.part.cwd, v.place.home)
      const why = paths === null ? (s.value === "." ? "an unknown directory" : undefined) : paths.map((p) => criticalPath(p, v.place)).find(Boolean)
      if (why && !filtered) level = { level: "critical", reason: `find deletes everything under ${why}` }
    }
    out.push({ name: level.level === "critical" ? "delete-critical" : "find-delete", level: level.level, reason: level.reason })
  }
  for (let j = 0; j < v.values.length; j++) {
    if (/^-f(print0?|printf|ls)$/.test(v.values[j]!)) {
      const target = v.args[j + 1]
      const verdict = target ? writeVerdict(target, v.part.cwd, v.place) : undefined
      if (verdict) out.push({ name: "write-files", level: verdict.level, reason: verdict.reason })
    }
  }
}

function execRuns(v: View, program: RegExp): boolean {
  for (let j = 0; j < v.values.length - 1; j++) {
    if (/^-(exec|execdir|ok|okdir)$/.test(v.values[j]!) && program.test((v.values[j + 1] ?? "").split("/").pop()!)) return true
  }
  return false
}

function dd(v: View, out: Finding[]): void {
  for (const a of v.args) {
    if (!a.text.startsWith("of=")) continue
    const target: Word = { ...a, text: a.text.slice(3), value: a.value?.slice(3) }
    const verdict = writeVerdict(target, v.part.cwd, v.place)
    if (!verdict) continue
    const disk = verdict.level === "critical" && (target.value ?? "").startsWith("/dev/")
    out.push({ name: disk ? "raw-disk-write" : "write-files", level: verdict.level, reason: verdict.reason })
  }
}

function permissions(v: View, out: Finding[]): void {
  const recursive = v.canon.flags.has("-R")
  for (const t of operandWords(v).slice(1)) {
    const paths = resolveWord(t, v.part.cwd, v.place.home) ?? []
    const why = paths.map((p) => criticalPath(p, v.place)).find(Boolean)
    if (why && recursive) out.push({ name: "permissions-critical", level: "critical", reason: `changes permissions recursively on ${why}` })
    const write = writeVerdict(t, v.part.cwd, v.place)
    if (write?.level === "critical") out.push({ name: "write-files", level: "critical", reason: write.reason })
  }
}

function lastOperand(v: View, out: Finding[]): void {
  linksAndBackups(v, out)
  // -t DIR (`--targ DIR`, `-vt DIR`): each source lands in DIR under its own name
  const into = intoDirectory(v.program as "cp" | "ln" | "install", v.args)
  if (into) {
    judgeWrites(v, out, into)
    return
  }
  landed(v, out)
}

/** mv: every operand changes (sources leave, the destination is written); with -t DIR, DIR/NAME too. */
function moves(v: View, out: Finding[]): void {
  linksAndBackups(v, out)
  eachOperand(v, out, "write-files", (w) => writeVerdict(w, v.part.cwd, v.place))
  const into = intoDirectory("mv", v.args)
  if (into) judgeWrites(v, out, into)
  else landed(v, out)
}

// the destination and DEST/NAME for each source (copyopts.ts landings); a folder's contents copied in
// (`cp -r pkg/. .`, `cp -rT pkg .`) write names not known here: .git/hooks, .claude or a startup file
// among them would be written, so high where such names matter (the workspace, the home)
function landed(v: View, out: Finding[]): void {
  const land = landings(v.program as "cp" | "ln" | "install" | "mv", v.args)
  judgeWrites(v, out, { dir: undefined, writes: land.writes })
  if (!land.contents) return
  const { from, into } = land.contents
  const paths = resolveWord(into, v.part.cwd, v.place.home)
  const known = paths !== null && paths.every((p) => !isInside(v.place.workspace, p) && !isInside(v.place.home, p))
  if (!known) out.push({ name: "write-files", level: "high", reason: `${v.program} ${v.program === "mv" ? "moves" : "copies"} the contents of ${from.text} into ${into.text}: the names it writes there are not known before it runs (a .git/hooks, .claude or startup file among them would be written)` })
}

function judgeWrites(v: View, out: Finding[], into: { dir: Word | undefined; writes: Word[] }): void {
  for (const w of into.writes.length ? into.writes : into.dir ? [into.dir] : []) {
    v.writes.push(w)
    const verdict = writeVerdict(w, v.part.cwd, v.place)
    if (verdict) out.push({ name: "write-files", level: verdict.level, reason: verdict.reason })
  }
}

function eachOperand(v: View, out: Finding[], name: string, judge: (w: Word) => Verdict | undefined, valued: string[] = []): void {
  let worst: Verdict | undefined
  for (const w of operandWords(v, valued)) {
    const verdict = judge(w)
    if (verdict && (!worst || riskRank(verdict.level) > riskRank(worst.level))) worst = verdict
  }
  if (worst) out.push({ name: worst.level === "critical" && name === "delete" ? "delete-critical" : name, level: worst.level, reason: worst.reason })
}

/** Operands: words that are not flags (everything after `--`), skipping the values of the given options. */
export function operandWords(v: View, valued: string[] = []): Word[] {
  const out: Word[] = []
  let done = false
  for (let i = 0; i < v.args.length; i++) {
    const a = v.values[i]!
    if (!done && a === "--") {
      done = true
      continue
    }
    if (!done && a.startsWith("-") && a !== "-") {
      if (valued.includes(a)) i++
      continue
    }
    out.push(v.args[i]!)
  }
  return out
}

function raise(v: Verdict, floor: Verdict["level"]): Verdict {
  return riskRank(v.level) >= riskRank(floor) ? v : { level: floor, reason: v.reason }
}

/** `history -w FILE` / `-a FILE` write the shell's history (which `history -s TEXT` fills) into FILE. */
function historyFile(v: View, out: Finding[]): void {
  if (!v.values.some((a) => /^-[a-zA-Z]*[wa]/.test(a))) return
  const files = operandWords(v)
  if (!files.length) {
    out.push({ name: "write-files", level: "medium", reason: "history -w/-a writes the history file ($HISTFILE)" })
    return
  }
  eachOperand(v, out, "write-files", (w) => writeVerdict(w, v.part.cwd, v.place))
}
