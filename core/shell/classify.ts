// Risk of one part: every table entry and assessor that applies, levels changed by the policy's
// risk.overrides, the max taken. What cannot be resolved is critical whatever the overrides say. Pure.
import { riskRank, RISKS, type Risk } from "../base/risk.ts"
import type { Finding } from "./raw.ts"
import type { Part } from "./part.ts"
import type { PlaceContext } from "./paths.ts"
import { canonical, type Canonical } from "./flags.ts"
import { TABLE, type Entry, type View } from "./table.ts"
import { ASSESSORS } from "./assess.ts"
import { writeVerdict } from "./paths.ts"
import { unknownInput } from "./redirects.ts"
import { checkOptions } from "./readonly.ts"
import { INTERPRETERS } from "./outside.ts"
import { buildArguments, buildFolder, projectAbove } from "./builds.ts"
import { credentialVariableRead, unknownReads } from "./secretreads.ts"
import { appendedArguments } from "./appended.ts"
import { NAME_PROGRAMS } from "./builtins.ts"
import type { Word } from "./word.ts"
import { printedSecrets, secretVariableFinding } from "./secretvars.ts"
import { blockDevice } from "./table-system.ts"
import { unknownWrites } from "./unknownwrites.ts"
import { memoize } from "../base/memo.ts"

export interface Classified {
  risk: Risk
  reasons: string[]
  classes: string[]
  /** files named in options or operands that the command writes */
  writes?: Word[]
}

// each entry with its subcommands as a set and the finding it adds, made once (risk.overrides replace
// a finding, never change it)
interface Compiled {
  sub: ReadonlySet<string> | undefined
  when: Entry["when"]
  finding: Finding
}
// looked up per program on first use (a one-shot hook classifies one or two programs; building the
// whole table by program at start-up cost it ~0.3 ms), memoized for runs that classify many
const entriesOf = memoize(tableEntries, { entries: 4096, maxLength: 256 })
// programs whose entries look past the name; for the rest (ls, cat, echo, ...) the canonical form is skipped
// (the variable-name builtins and make/ed/ex are assessed from their words, not the canonical form)
const OWN_WORDS = new Set([...NAME_PROGRAMS, "make", "ed", "ex"])
// assessed programs that run code rather than change files: with nothing found they are still medium
const RUNS_CODE = new Set([...INTERPRETERS, "npm", "pnpm", "yarn", "bun", "deno", "go", "cargo", "make"])
const NO_ARGS: Canonical = { flags: new Set(), operands: [] }

// where a program given with its directory is still the system's own
const SYSTEM_BINS = /^\/(usr\/(local\/)?)?s?bin\/[^/]+$|^\/opt\/homebrew\/bin\/[^/]+$|^\/bin\/[^/]+$/

export function classify(part: Part, place: PlaceContext, overrides?: Record<string, Risk>): Classified {
  // copies: overrides below change levels, and the part's own findings must stay as found
  // a copy: the part's own findings must stay as found (risk.overrides below replace findings, never change them)
  const findings: Finding[] = part.findings.length ? [...part.findings] : []
  const program = part.program
  const args = part.words.slice(1)
  const base = baseProgram(program)
  const values: string[] = []
  for (const a of args) values.push(a.value ?? a.text)
  const { entries, looksAtArgs } = entriesOf(base)
  const canon = looksAtArgs ? canonical(program, values) : NO_ARGS
  const view: View = { part, program, args, values, canon, sub: canon.operands[0], place, writes: [] }

  let known = findings.length > 0
  for (const e of entries) {
    if (e.sub && !e.sub.has(view.sub ?? "")) continue
    if (e.when && !e.when(view)) continue
    findings.push(e.finding)
    known = true
  }
  const assess = ASSESSORS.get(base)
  if (assess) {
    const before = findings.length
    assess(view, findings)
    // the assessed programs without a table entry change files: with no operand to judge (`xargs touch`)
    // they still change some
    if (!known && findings.length === before) {
      findings.push(RUNS_CODE.has(base)
        ? { name: "unknown", level: "medium", reason: `${program} runs code ccode does not inspect` }
        : { name: "write-files", level: "medium", reason: `${program} changes files it is given at run time` })
    }
    known = true
  }
  // a build runs the workspace's code: arguments and variables that point it elsewhere are judged here
  // (after the program's own assessor, whose reasons name its options more precisely)
  if (hasFinding(findings, "build")) {
    buildArguments(view, findings)
    projectAbove(view, findings)
    buildFolder(view, findings)
  }
  if (checkOptions(view, findings)) known = true
  appendedArguments(part, base, findings)
  const hidden = unknownReads(part)
  if (hidden) findings.push({ name: "read-unknown", level: "medium", reason: hidden })
  const credential = credentialVariableRead(part, place.home, place.env)
  if (credential) findings.push({ name: "read-unknown", level: "high", reason: credential })
  if (!known && !part.unresolved) {
    // on a case-insensitive file system (macOS) `Rm` runs rm: a known program in another case is not
    // an unknown medium command (ci would auto-approve `Rm -rf /`)
    const lower = base.toLowerCase()
    if (lower !== base && (entriesOf(lower).entries.length > 0 || ASSESSORS.has(lower))) findings.push({ name: "unknown", level: "high", reason: `${program} is ${lower} on a case-insensitive file system: spell it ${lower} to have it judged` })
    else {
      const device = blockDevice(values)
      findings.push(device
        ? { name: "block-device", level: "critical", reason: `${program} is not a command ccode knows and is given the block device ${device}: it may format or erase it` }
        : { name: "unknown", level: "medium", reason: `${program} is not a command ccode knows` })
      unknownWrites(view, findings)
    }
  }

  if (part.writes) for (const w of part.writes) {
    view.writes.push(w)
    const verdict = writeVerdict(w, part.cwd, place)
    if (verdict) findings.push({ name: "write-files", level: verdict.level, reason: `${part.wrappers.at(-1) ?? program}: ${verdict.reason}` })
  }
  for (const r of part.redirects) {
    const net = /^\/dev\/(tcp|udp)\//.exec(r.target.value ?? "")
    if (net) findings.push(r.access === "read"
      ? { name: "network", level: "medium", reason: `reads from the network through ${r.target.value}` }
      : { name: "network-upload", level: "high", reason: `sends data over the network through ${r.target.value}` })
    if (r.access === "read") {
      const unknown = unknownInput(r)
      if (unknown) findings.push(unknown)
      continue
    }
    const verdict = writeVerdict(r.target, part.cwd, place)
    if (verdict) findings.push({ name: "redirect-write", level: verdict.level, reason: `${r.access === "append" ? "appends to" : "overwrites"}: ${verdict.reason}` })
  }
  if (part.loader.length) findings.push({ name: "loader-env", level: "high", reason: `sets ${[...new Set(part.loader)].join(", ")}, which changes what code runs` })
  if (part.programPath && !SYSTEM_BINS.test(part.programPath)) {
    findings.push({ name: "local-program", level: "medium", reason: `runs ${part.programPath}, not the system's ${program}` })
  }
  for (const f of printedSecrets(part, place.env)) findings.push(f)
  if (part.forkBomb) findings.push({ name: "fork-bomb", level: "critical", reason: "a function that starts copies of itself without end (fork bomb)" })

  if (overrides) {
    for (let i = 0; i < findings.length; i++) {
      const f = findings[i]!
      const level = Object.hasOwn(overrides, f.name) ? overrides[f.name] : undefined
      if (level) findings[i] = { name: f.name, level, reason: f.reason }
    }
  }
  if (part.unresolved) findings.push({ name: "unresolved", level: "critical", reason: part.unresolved })
  const out = summarise(findings)
  if (view.writes.length) out.writes = view.writes
  return out
}

function hasFinding(findings: readonly Finding[], name: string): boolean {
  for (const f of findings) if (f.name === name) return true
  return false
}

/** The name the table knows a program by (`mkfs.ext4` is mkfs). */
export function baseProgram(program: string): string {
  return program.startsWith("mkfs.") ? "mkfs" : program
}

export function summarise(findings: Finding[]): Classified {
  if (findings.length === 1) return { risk: findings[0]!.level, reasons: [findings[0]!.reason], classes: [findings[0]!.name] }
  let top = 0
  for (const f of findings) top = Math.max(top, riskRank(f.level))
  if (findings.length > 8) {
    const sorted = [...findings].sort((a, b) => riskRank(b.level) - riskRank(a.level))
    return { risk: RISKS[top]!, reasons: [...new Set(sorted.map((f) => f.reason))], classes: [...new Set(findings.map((f) => f.name))] }
  }
  // the same without the copies for the usual few: strongest first (a stable sort), each reason and class once
  const reasons: string[] = []
  for (let rank = top; rank >= 0; rank--) for (const f of findings) if (riskRank(f.level) === rank && !reasons.includes(f.reason)) reasons.push(f.reason)
  const classes: string[] = []
  for (const f of findings) if (!classes.includes(f.name)) classes.push(f.name)
  return { risk: RISKS[top]!, reasons, classes }
}

// each entry compiled once, when a program it names is first classified (the same object for all its programs)
const compiled: (Compiled | undefined)[] = []

/** The table's entries for one program, in table order (an entry naming it twice counts twice), and
 *  whether any of them, or its assessor, looks past the program's name. */
export function tableEntries(program: string): { entries: readonly Compiled[]; looksAtArgs: boolean } {
  const entries: Compiled[] = []
  let looksAtArgs = ASSESSORS.has(program) && !OWN_WORDS.has(program)
  for (let i = 0; i < TABLE.length; i++) {
    const e = TABLE[i]!
    for (let at = e.programs.indexOf(program); at >= 0; at = e.programs.indexOf(program, at + 1)) {
      entries.push((compiled[i] ??= { sub: e.sub && new Set(e.sub), when: e.when, finding: Object.freeze({ name: e.name, level: e.level, reason: e.reason }) }))
      if (e.sub || e.when) looksAtArgs = true
    }
  }
  return { entries, looksAtArgs }
}
