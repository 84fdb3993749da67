// One command string to a ShellAnalysis: read it (fast path or tree-sitter), expand wrappers and nested
// scripts, classify every part, collect touched paths. Synchronous once the parser is loaded. Pure.
import { archivePrints } from "./archiveprints.ts"
import { foreignGrammar } from "./grammars.ts"
import { riskRank, type Risk } from "../base/risk.ts"
import type { Construct, ShellAnalysis, SimpleCommand, TouchedPath } from "./types.ts"
import type { Finding, RawCommand, RawRedirect, Walked } from "./raw.ts"
import type { FdTable } from "./fds.ts"
import { readPlain } from "./plain.ts"
import { readSimpleList } from "./list.ts"
import { parserDivergence } from "./divergence.ts"
import { parseBash, parserReady } from "./parser.ts"
import { walkScript } from "./walk.ts"
import { rootScope, isLoaderVar, type Cwd, type ShellEnv } from "./scope.ts"
import { expandCommand, type Expander, type Part } from "./expand.ts"
import type { ShellStart } from "./part.ts"
import { BUILTIN_INTEGER_ASSIGNMENT } from "./setvars.ts"
import { classify } from "./classify.ts"
import { writeVerdict, type PlaceContext } from "./paths.ts"
import { unknownInput } from "./redirects.ts"
import { redirectPaths, touchedPaths, type Unplaced } from "./touched.ts"
import { gitContentReads } from "./gitcontent.ts"
import { unpackReads } from "./unpacks.ts"
import { followedWalks, recursiveReads } from "./secretreads.ts"
import { walkerReads } from "./walkers.ts"
import { splitBestEffort } from "./pattern.ts"
import { literalWord } from "./word.ts"
import { resolveWord, withPhysical } from "./cwd.ts"
import { globCandidates } from "./globs.ts"
import { secretVariableFinding } from "./secretvars.ts"
import { madeLinks, throughLinks, type MadeLink } from "./links.ts"

export interface AnalyzeContext {
  cwd: string
  workspace: string
  home: string
  /** the environment the command would run with (to know unset variables) */
  env?: Record<string, string | undefined>
  /** policy risk.overrides: level per built-in classifier entry name */
  overrides?: Record<string, Risk>
  /** where a path really leads (symlinks followed): the caller does the fs, so a write to a workspace
   *  file that links to ~/.bashrc is judged as a write to ~/.bashrc */
  realpath?: (path: string) => string
  /** which repository git started in a folder uses: "own" (the workspace's), "none", or the folder of
   *  another repository embedded in the workspace (core/base/gitrepo.ts); the caller does the fs */
  gitRepo?: (dir: string) => string
  /** the first project file above the workspace a build runner started in a folder would use
   *  (core/base/buildroot.ts); the caller does the fs */
  projectAbove?: (program: string, dir: string, loose: boolean) => string | undefined
}

export interface AnalyzeOptions {
  /** false: always use tree-sitter, even for plain commands (to check the two paths agree) */
  fastPath?: boolean
}

/** Thrown by the synchronous analysis when it needs tree-sitter and it is not loaded yet. */
export class ParserNotLoaded extends Error {
  constructor() {
    super("the bash parser is not loaded: await loadParser() first")
  }
}

export const MAX_COMMAND_BYTES = 64 * 1024
const MAX_DEPTH = 8

interface Run {
  ctx: AnalyzeContext
  shell: ShellEnv
  place: PlaceContext
  fast: boolean
  errors: string[]
  /** something outside any part cannot be resolved statically (arithmetic on a script variable) */
  unresolved?: boolean
  /** redirects without a command (`> f`, `$(< f)`), judged at the end with the links the command makes */
  bare: { findings: Finding[]; redirects: { r: RawRedirect; at: Cwd }[] }
}

const TMP = ["/tmp", "/var/tmp"]
const NO_VARS: Map<string, string | undefined> = new Map()

export function analyzeSync(command: string, ctx: AnalyzeContext, options: AnalyzeOptions = {}): ShellAnalysis {
  return withPhysical(ctx.realpath, () => analyzeIn(command, ctx, options))
}

function analyzeIn(command: string, ctx: AnalyzeContext, options: AnalyzeOptions): ShellAnalysis {
  const tmpdir = ctx.env?.TMPDIR
  const tmp = tmpdir ? [...TMP, tmpdir.replace(/\/+$/, "")] : TMP
  const run: Run = {
    ctx, shell: { home: ctx.home, env: ctx.env, secretsRead: new Set() }, place: { workspace: ctx.workspace, home: ctx.home, env: ctx.env, tmp, realpath: ctx.realpath, gitRepo: ctx.gitRepo, projectAbove: ctx.projectAbove },
    fast: options.fastPath !== false, errors: [], bare: { findings: [], redirects: [] },
  }
  if (command.length * 3 > MAX_COMMAND_BYTES && Buffer.byteLength(command) > MAX_COMMAND_BYTES) run.errors.push("the command is over 64 KiB")
  // POSIXLY_CORRECT in the environment starts bash in posix mode: aliases expand, quotes read otherwise
  if (ctx.env && Object.hasOwn(ctx.env, "POSIXLY_CORRECT")) {
    const foreign = foreignGrammar("bash", command, true)
    if (foreign) run.bare.findings.push({ name: "shell-grammar", level: foreign.level, reason: `${foreign.reason} (POSIXLY_CORRECT is set in the environment)` })
  }
  const parts = run.errors.length ? bestEffort(run, command, [], [ctx.cwd], [], 0) : script(run, command, [], [ctx.cwd], [], NO_VARS, 0)
  return finish(run, command, parts)
}

function script(run: Run, source: string, context: Construct[], cwd: Cwd, loader: string[], vars: Map<string, string | undefined>, depth: number, start?: ShellStart, fds?: FdTable): Part[] {
  if (depth > MAX_DEPTH) {
    run.errors.push("scripts are nested too deeply to follow")
    return []
  }
  const walked = read(run, source, context, cwd, loader, vars, start)
  if (!walked) return bestEffort(run, source, context, cwd, loader, depth)
  const out: Part[] = []
  const ex: Expander = {
    home: run.ctx.home,
    workspace: run.ctx.workspace,
    out,
    nested: (body, how) => {
      const env = new Map(how.exported ?? [])
      return script(run, body.value ?? "", how.context, how.cwd, how.loader, env, depth + 1, how, ex.fds)
    },
  }
  if (fds) ex.fds = fds
  for (const raw of walked.commands) {
    const table = expandCommand(raw, ex)
    // `exec 3<file` (no program): the descriptors stay open for the commands after it
    if (table && raw.words.length === 1 && raw.words[0]!.value === "exec") ex.fds = table
  }
  if (walked.findings) run.bare.findings.push(...walked.findings)
  if (walked.unresolved?.length) {
    for (const reason of walked.unresolved) run.bare.findings.push({ name: "unresolved", level: "critical", reason })
    run.unresolved = true
  }
  // (null: a directory not known, which is no reason to take the start one)
  for (let i = 0; i < walked.bare.length; i++) run.bare.redirects.push({ r: walked.bare[i]!, at: walked.bareCwd[i] === undefined ? cwd : walked.bareCwd[i]! })
  return out
}

function read(run: Run, source: string, context: Construct[], cwd: Cwd, loader: string[], vars: Map<string, string | undefined>, start: ShellStart = {}): Walked | undefined {
  // before either reader: a text the parser misreads is never walked (the fast paths refuse these too)
  const diverges = parserDivergence(source)
  if (diverges) {
    run.errors.push(diverges)
    return undefined
  }
  const plain = run.fast && !start.cdableVars && !start.late && start.braces === undefined && !(source.includes("=") && BUILTIN_INTEGER_ASSIGNMENT.test(source)) ? (readPlain(source, loader, vars, cwd, context) ?? readSimpleList(source, loader, vars, cwd, context)) : undefined
  if (plain) return plain
  const scope = rootScope(vars, loader)
  if (start.cdableVars) scope.cdableVars = true // `bash -O cdable_vars -c ...`
  if (start.late) scope.late = true
  if (start.braces !== undefined) scope.braceexpand = start.braces // `bash +B -c ...`
  if (!parserReady()) throw new ParserNotLoaded()
  const parsed = parseBash(source)
  if (parsed.error) {
    run.errors.push(parsed.error)
    return undefined
  }
  return walkScript(parsed.root, source, run.shell, scope, cwd, context)
}

/** What an unparseable script most likely runs: whitespace-split, so deny rules still see it. */
function bestEffort(run: Run, source: string, context: Construct[], cwd: Cwd, loader: string[], depth: number): Part[] {
  const out: Part[] = []
  const ex: Expander = { home: run.ctx.home, workspace: run.ctx.workspace, out, nested: (body, how) => (depth < MAX_DEPTH ? bestEffort(run, body.value ?? "", how.context, how.cwd, how.loader, depth + 1) : []) }
  for (const piece of splitBestEffort(source)) {
    const words = [...piece.words]
    const assignments: RawCommand["assignments"] = []
    while (words.length > 1 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!)) {
      const w = words.shift()!
      assignments.push({ name: w.slice(0, w.indexOf("=")), value: literalWord(w.slice(w.indexOf("=") + 1)) })
    }
    const raw: RawCommand = { words: words.map((w) => literalWord(w)), assignments, redirects: [], context, text: piece.text, cwd, loader: [...loader, ...assignments.map((a) => a.name).filter(isLoaderVar)] }
    expandCommand(raw, ex)
  }
  for (const p of out) p.unresolved ??= "the command could not be parsed; these parts are a best guess"
  return out
}

function finish(run: Run, source: string, parts: Part[]): ShellAnalysis {
  const commands: SimpleCommand[] = []
  const paths: TouchedPath[] = []
  // the strongest reason of each part (and of bare redirects and parse errors): the analysis' own reasons
  const tops: Finding[] = run.bare.findings.length ? run.bare.findings.slice() : []
  const links = madeLinks(parts, run.ctx.home, run.ctx.workspace)
  const placeOf = (self: number): PlaceContext => (links.length ? { ...run.place, through: (p) => throughLinks(p, links, self, run.ctx.realpath) } : run.place)
  const bare = placeOf(-1)
  const unplaced: Unplaced[] = []
  for (const { r, at } of run.bare.redirects) {
    const unknown = unknownInput(r)
    if (unknown) tops.push(unknown)
    const verdict = r.access === "read" ? undefined : writeVerdict(r.target, at, bare)
    if (verdict) tops.push({ name: "redirect-write", level: verdict.level, reason: `${r.access === "append" ? "appends to" : "overwrites"}: ${verdict.reason}` })
    for (const p of redirectPaths([r], at, run.ctx.home, unplaced)) paths.push(p)
  }
  if (links.length) linked(paths, -1, links, run, tops)
  let unresolvable = run.errors.length > 0 || run.unresolved === true
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!
    // what earlier parts write changes what later ones find on disk (`cp -r x.git y && git -C y log`)
    const wroteBefore = writes(paths)
    const place = placeOf(i)
    const c = classify(part, wroteBefore ? { ...place, wroteBefore } : place, run.ctx.overrides)
    commands.push(toSimple(part, c.risk, c.reasons, c.classes))
    if (c.reasons[0]) tops.push({ name: "", level: c.risk, reason: c.reasons[0] })
    const from = paths.length
    for (const p of touchedPaths(part, run.ctx.home, unplaced)) paths.push(p)
    // with no link on disk or made by the command a root leads only to itself (recursiveReads' default)
    const walkLeads = run.ctx.realpath || links.length ? leadsFrom(place, run.ctx.realpath) : undefined
    for (const p of recursiveReads(part, run.ctx.home, walkLeads)) paths.push(p)
    for (const p of walkerReads(part, run.ctx.home, walkLeads)) paths.push(p)
    for (const p of followedWalks(part, run.ctx.home)) paths.push(p)
    for (const p of gitContentReads(part, run.ctx.home)) paths.push(p)
    for (const p of unpackReads(part, run.ctx.home, wroteBefore)) paths.push(p)
    for (const p of archivePrints(part, run.ctx.home)) paths.push(p)
    if (c.writes) for (const w of c.writes) for (const path of resolveWord(w, part.cwd, run.ctx.home) ?? []) paths.push(...(w.glob ? globCandidates(path) : []).map((p) => ({ path: p, access: "write" as const })), w.glob ? { path, access: "write", glob: true } : { path, access: "write" })
    if (links.length) linked(paths, i, links, run, tops, from)
    if (part.unresolved) unresolvable = true
  }
  for (const u of unplaced) tops.push(unplacedFinding(u))
  const overrides = run.ctx.overrides
  if (run.shell.secretsRead?.size) for (const name of run.shell.secretsRead) {
    const f = secretVariableFinding(name)
    tops.push(overrides && Object.hasOwn(overrides, f.name) ? { ...f, level: overrides[f.name]! } : f)
  }
  if (run.errors.length) tops.push({ name: "unresolved", level: "critical", reason: run.errors[0]! })
  let risk: Risk = "safe"
  for (const f of tops) if (riskRank(f.level) > riskRank(risk)) risk = f.level
  if (unresolvable) risk = "critical"
  const reasons: string[] = []
  for (const f of tops) if (f.level === risk && !reasons.includes(f.reason)) reasons.push(f.reason)
  const analysis: ShellAnalysis = { source, commands, risk, reasons, unresolvable, paths: paths.length > 1 ? dedupe(paths) : paths }
  if (run.errors.length) analysis.parseError = run.errors[0]
  if (exposes(tops, commands)) analysis.exposesSecrets = true
  return analysis
}

/** Paths that lead through links the command makes: where they lead is touched too; a link that could
 *  lead anywhere makes the read medium and the write high (it is not known to stay in the workspace). */
function linked(paths: TouchedPath[], self: number, links: MadeLink[], run: Run, tops: Finding[], from = 0): void {
  const end = paths.length
  for (let k = from; k < end; k++) {
    const p = paths[k]!
    const t = throughLinks(p.path, links, self, run.ctx.realpath)
    if (!t) continue
    for (const path of t.paths) paths.push({ path, access: p.access })
    if (t.unknown) {
      const how = `${p.path} through ${t.unknown.at}, which ${t.unknown.how} in this command may make a link to anywhere`
      tops.push(p.access === "write" ? { name: "link-write", level: "high", reason: `writes ${how}` } : { name: "link-read", level: "medium", reason: `reads ${how}` })
    }
  }
}

function leadsFrom(place: PlaceContext, realpath?: (p: string) => string): (path: string) => string[] {
  return (r) => leads(r, place, realpath)
}

// where a folder a recursive read walks really is: through the links on disk and those the command makes
function leads(path: string, place: PlaceContext, realpath?: (p: string) => string): string[] {
  const out = [path]
  const real = realpath?.(path)
  if (real !== undefined && real !== path) out.push(real)
  for (const p of place.through?.(path)?.paths ?? []) out.push(p)
  return out
}

// another process's directory (/proc/PID/cwd) or the directory stack (`~-`, `~1`): where the path
// leads is not known, so it could be a secret (a read) or a file anywhere (a write)
function unplacedFinding(u: Unplaced): Finding {
  const proc = u.path.startsWith("/proc/")
  const where = proc ? "another process's directory" : "a directory not known before it runs"
  return u.access === "read"
    ? { name: "unplaced-read", level: "medium", reason: `reads ${u.path}, in ${where}` }
    : { name: "unplaced-write", level: proc ? "high" : "medium", reason: `writes ${u.path}, in ${where}` }
}

// findings whose harm is the secret reaching the output: the OS sandbox passes the environment through
const EXPOSING = new Set(["secret-variable", "print-environment"])

function exposes(tops: Finding[], commands: SimpleCommand[]): boolean {
  for (const f of tops) if (EXPOSING.has(f.name)) return true
  for (const c of commands) for (const n of c.classes) if (EXPOSING.has(n)) return true
  return false
}

function toSimple(part: Part, risk: Risk, reasons: string[], classes: string[]): SimpleCommand {
  const args: string[] = []
  // the arguments not known before it runs, in the same pass
  let open: number[] | undefined
  for (let i = 1; i < part.words.length; i++) {
    const w = part.words[i]!
    args.push(w.text)
    if (w.value === undefined || w.hollow || w.placeholder) (open ??= []).push(i - 1)
  }
  const cmd: SimpleCommand = {
    text: part.text,
    program: part.program,
    args,
    assignments: part.assignments.length ? part.assignments.map((a) => ({ name: a.name, value: a.value.text })) : [],
    redirects: part.redirects.length ? part.redirects.map((r) => ({ op: r.op, target: r.target.text, access: r.access })) : [],
    context: part.context,
    wrappers: part.wrappers,
    risk,
    reasons,
    classes,
    unresolved: part.unresolved !== undefined,
    loaderEnv: part.loader.length > 0,
  }
  if (part.programPath !== undefined) cmd.programPath = part.programPath
  if (open) cmd.open = open
  if (part.appended) cmd.appended = true
  return cmd
}

function writes(paths: readonly TouchedPath[]): boolean {
  // output thrown away (`2>/dev/null`) makes no file a later git could find
  for (const p of paths) if (p.access !== "read" && p.path !== "/dev/null") return true
  return false
}

function listed(paths: readonly TouchedPath[], p: TouchedPath): boolean {
  for (const q of paths) {
    if (q.path === p.path && (q.access === "read") === (p.access === "read") && q.follow === p.follow && q.operand === p.operand && q.recursive === p.recursive && q.tree === p.tree && q.archives === p.archives && q.git === p.git && q.unpacks === p.unpacks) return true
  }
  return false
}

function dedupe(paths: TouchedPath[]): TouchedPath[] {
  if (paths.length <= 16) {
    // the usual few: compared in place, without a key string per path
    const out: TouchedPath[] = []
    for (const p of paths) if (!listed(out, p)) out.push(p)
    return out
  }
  // the usual path (absolute, nothing but its kind): one set per kind keyed by the path itself, with no
  // key string built; the rest by the full key (which starts otherwise: the two never meet)
  const plain = { f: new Set<string>(), R: new Set<string>(), r: new Set<string>(), w: new Set<string>() }
  const seen = new Set<string>()
  const out: TouchedPath[] = []
  for (const p of paths) {
    const kind = p.follow ? "f" : p.recursive ? "R" : p.access === "read" ? "r" : "w"
    const extra = (p.tree ? `t${p.tree}:` : "") + (p.archives ? "a:" : "") + (p.operand ? `o${p.operand}:` : "") + (p.git ? `g${JSON.stringify(p.git)}:` : "") + (p.unpacks ? `u${JSON.stringify(p.unpacks)}:` : "")
    const set = extra === "" && p.path.startsWith("/") ? plain[kind] : seen
    const key = set === seen ? kind + extra + p.path : p.path
    if (set.has(key)) continue
    set.add(key)
    out.push(p)
  }
  return out
}
