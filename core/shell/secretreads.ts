// Reads whose files the path rules cannot see on their own: a program that shows what it reads, given
// a file named only at run time (`cat $(echo ~/.ssh/id_rsa)`, `... | xargs cat`, `find -exec cat {} +`,
// a relative name in a directory not known statically), recursive readers (grep -r, rg, ag, diff -r,
// git grep --no-index) over a directory that holds the home directory's secrets (`grep -r . ~`), and the
// trees of those that follow the links they meet (grep -R), for the caller to look up on disk. Pure.
import type { Part } from "./part.ts"
import type { TouchedPath } from "./types.ts"
import type { Word } from "./word.ts"
import { isInsideFold, resolveWord } from "./cwd.ts"
import { optionReadsUnknown, patternGiven } from "./optionreads.ts"
import { readOptions, type Compiled, type OptionReading } from "./getopt.ts"
import { rgTypeGlobs } from "./rgtypes.ts"
import { known } from "./known.ts"
import { gitOptions } from "./known-git.ts"
import { byName } from "./options.ts"
import { printsBinary } from "./binaryreads.ts"
import { segmentRegex } from "./globs.ts"
import { CREDENTIAL_PATHS, BUILD_CREDENTIAL_PATHS, CREDENTIAL_VARIABLES } from "../base/secrets.ts"
import { operands } from "./part.ts"
import { jqInputs } from "./jqmodules.ts"
import { movesStores, relocatedStore } from "./relocated.ts"

/** Programs that print the content of the files they read (wc, md5sum, stat, ls only print about them). */
const SHOWS_CONTENT = new Set([
  "cat", "tac", "head", "tail", "less", "more", "bat", "sort", "uniq", "cut", "nl", "od", "xxd", "hexdump", "strings", "base64",
  "jq", "yq", "sed", "awk", "gawk", "mawk", "nawk", "diff", "comm", "join", "paste", "fold", "fmt", "column", "rev", "tr",
  "grep", "egrep", "fgrep", "rg", "ag", "ack", "cmp", "zcat", "zless", "view",
])
const PATTERN_FIRST = new Set(["grep", "egrep", "fgrep", "rg", "ag", "ack"])
// the first operand is a program or pattern, not a file (its own analysis judges it)
const SCRIPT_FIRST = new Set([...PATTERN_FIRST, "sed", "awk", "gawk", "mawk", "nawk", "jq", "yq"])
const ALWAYS_RECURSIVE = new Set(["rg", "ag", "ack"])
// both lists: a build tool's settings (~/.m2/settings.xml) hold registry passwords too
const CREDENTIALS = [...CREDENTIAL_PATHS, ...BUILD_CREDENTIAL_PATHS]

// the home directory's secret locations: a recursive read of a directory above them reads them
const HOME_SECRETS = [".ssh", ".aws", ".gnupg", ".netrc", ".git-credentials", ".kube", ".docker", ".npmrc", ".pypirc", ".config", ".azure", ".gcloud"]

/** Why a content-showing read reaches files nobody can name before it runs; undefined when all are known. */
export function unknownReads(part: Part): string | undefined {
  const listed = optionReadsUnknown(part.program, part.words)
  if (listed) return listed
  // the objects it prints are named in its input (or are all of them): any could be a committed .env
  if (part.program === "git" && part.words[1]?.value === "cat-file" && part.words.some((w) => w.value === undefined || w.value.startsWith("--ba"))) {
    return "git cat-file --batch shows the objects its input names (or every object): one could be a credential file"
  }
  if (part.program === "git") return gitUnknownReads(part)
  if (!SHOWS_CONTENT.has(part.program)) return undefined
  // the arguments' values looked at in place (no copy: cat, head and grep come here for every file)
  const words = part.words
  for (let i = 1; i < words.length; i++) if ((words[i]!.value ?? "").startsWith("--files0")) return `${part.program} --files0-from shows the files a list names at run time: one could be a secret`
  if (part.program === "yq") for (let i = 1; i < words.length; i++) if (/\bload(_[a-z]+)?\s*\(/.test(words[i]!.value ?? "")) return "yq load() reads the file its expression names"
  if (part.appended) return `${part.program} shows files named at run time (by xargs or find): one could be a secret`
  // jq's option values (`--arg NAME VALUE`) are not files; its --slurpfile/--rawfile files are touched paths
  const jq = part.program === "jq"
  const ops = jq ? jqInputs(part.words.slice(1)) : operands(part.words, 1)
  const first = !jq && SCRIPT_FIRST.has(part.program) && !patternGiven(part.program, part.words) ? 1 : 0
  for (const w of ops.slice(first)) {
    // a process substitution's content comes from a command analysed on its own
    if (w.procsub) continue
    if (w.value === undefined || w.placeholder || w.hollow) return `${part.program} shows ${w.text}, a file named only at run time: it could be a secret`
    if (part.cwd === null && !w.value.startsWith("/") && !w.tilde && w.value !== "-") return `${part.program} shows ${w.value} in a directory not known before it runs`
  }
  return undefined
}

let credentialVar: RegExp | undefined
// programs that copy what they read into other files (a copy in the workspace is then an ordinary read)
const COPIES = new Set(["cp", "mv", "ln", "install", "rsync", "scp", "tar", "zip", "gzip", "bzip2", "xz", "zstd", "dd", "base32", "split", "csplit"])

/** A content-showing read (or an input redirect) of a path written with a variable that names a credential
 *  file (`cat $KRB5CCNAME`, `cat "$CREDENTIALS_DIRECTORY/db"`, `< $GOOGLE_APPLICATION_CREDENTIALS`). */
export function credentialVariableRead(part: Part, home = "", env?: Record<string, string | undefined>): string | undefined {
  // whether the environment moves a store: the same for every word (looked up once, not per word)
  let moves: boolean | undefined
  if (SHOWS_CONTENT.has(part.program) || COPIES.has(part.program)) for (let i = 1; i < part.words.length; i++) {
    const found = credentialVariable(part.program, part.words[i]!) ?? relocated(part, part.words[i]!, home, env, (moves ??= movesStores(env)))
    if (found) return found
  }
  for (const r of part.redirects) if (r.access === "read") {
    const found = credentialVariable(part.program, r.target) ?? relocated(part, r.target, home, env, (moves ??= movesStores(env)))
    if (found) return found
  }
  return undefined
}

// a store moved by XDG_CONFIG_HOME, XDG_DATA_HOME or CARGO_HOME (relocated.ts); `moves`: movesStores(env)
function relocated(part: Part, w: Word, home: string, env: Record<string, string | undefined> | undefined, moves: boolean): string | undefined {
  const written = w.text.includes("$")
  const moved = w.value !== undefined && moves
  if (!written && !moved) return undefined
  const paths = moved ? (resolveWord(w, part.cwd, home) ?? []) : []
  return relocatedStore(part.program, w.text, paths, env)
}

function credentialVariable(program: string, w: Word): string | undefined {
  if (!w.text.includes("$")) return undefined
  credentialVar ??= new RegExp(`\\$\\{?[#!]?(${CREDENTIAL_VARIABLES.join("|")})\\b`)
  const m = credentialVar.exec(w.text)
  return m ? `${program} reads ${w.text}: $${m[1]} names a credential file (a read sends it to the model)` : undefined
}

// git's subcommands that print files' content as committed, staged or in the work tree
const GIT_SHOWS = new Set(["show", "log", "whatchanged", "diff", "diff-tree", "diff-index", "diff-files", "grep", "blame", "annotate", "cat-file", "stash", "range-diff", "reflog", "format-patch", "archive"])

// `git show HEAD~1:$(echo .env)`, `git log -p -- $f`: a revision's path or a pathspec named at run time
// could be a committed .env; a word whose start is not static is judged elsewhere (it could be an option)
function gitUnknownReads(part: Part): string | undefined {
  const sub = part.words[1]?.value
  if (sub === undefined || !GIT_SHOWS.has(sub)) return undefined
  for (const w of options(part)?.reading.operands ?? operands(part.words, 2)) {
    if (w.procsub) continue
    if (w.value === undefined || w.placeholder || w.hollow) return `git ${sub} reads ${w.text}, a revision or path named only at run time: it could name a credential file`
  }
  return undefined
}

/**
 * Paths a recursive read reaches below its directories: the home directory's secrets when a directory
 * holds them. `leads` says where a root really is (a link named as an operand, `h -> /root`, is walked
 * where it leads); a glob root is returned marked `recursive` for the caller to check its matches on disk.
 */
// what most parts touch here: shared, never added to (the caller copies what it is given)
const NO_PATHS: TouchedPath[] = []

export function recursiveReads(part: Part, home: string, leads: (path: string) => string[] = (p) => [p]): TouchedPath[] {
  if (!recursive(part)) return part.program === "diff" ? pairedReads(part, home) : NO_PATHS
  const out: TouchedPath[] = part.program === "diff" ? pairedReads(part, home) : []
  // rg: the dot-names its globs and ignore files let through (null: ag, none; undefined: every one)
  const dots = hiddenSkipped(part) ? rgDotGlobs(part) : undefined
  const tree = dots !== undefined ? "visible" : "all"
  // grep -a, rg -a: an archive met in the walk prints its members
  const archives = printsBinary(part.program, part.words) ? { archives: true as const } : undefined
  for (const r of walkRoots(part, home)) {
    if (/[*?[]/.test(r)) {
      out.push({ path: r, access: "read", glob: true, recursive: true }, dots ? { path: r, access: "read", tree, dotGlobs: dots, ...archives } : { path: r, access: "read", tree, ...archives })
      for (const path of credentialsBelowGlob(r, home)) out.push({ path, access: "read" })
      continue
    }
    for (const at of leads(r)) {
      for (const path of credentialsBelow(at, home)) out.push({ path, access: "read" })
      // after the known locations, so a reason names those first
      out.push(dots ? { path: at, access: "read", tree, dotGlobs: dots, ...archives } : { path: at, access: "read", tree, ...archives })
    }
  }
  return out
}

// rg and ag leave out dot-files unless told (--hidden, -uu, --unrestricted); every other reader opens them
function hiddenSkipped(part: Part): boolean {
  if (part.program !== "rg" && part.program !== "ag") return false
  const r = options(part)
  return r !== undefined && !r.marks.has("hidden") && !r.marks.has("u") && !r.marks.has("unrestricted")
}

// rg searches a dot-name its override globs match (-g/--glob/--iglob are decided before the hidden
// test): those globs, for the walk to let their matches through; undefined when the walk must take every
// dot-name (a glob or --ignore-file not known statically, an ignore file given on the command line). ag
// skips dot-files whatever its -G/ignore files say: no globs.
function rgDotGlobs(part: Part): string[] | null | undefined {
  if (part.program !== "rg") return null
  const r = options(part)
  if (!r) return undefined
  const globs: string[] = []
  for (const v of r.reading.valued) {
    if (v.name === "ignore-file") return undefined
    if (v.name !== "g" && v.name !== "glob" && v.name !== "iglob") continue
    const g = v.value?.value
    if (g === undefined) return undefined
    if (!g.startsWith("!")) globs.push(g)
  }
  const types = rgTypeGlobs(r.reading.valued)
  return types === undefined ? undefined : [...globs, ...types]
}

/**
 * The credential locations a recursive read of every folder a glob can match reaches (`grep -r x
 * /home/*` reads /home/dev/.ssh): those at or below a name the glob matches, segment by segment. A `**`
 * can match any depth: the glob is cut there (a walk below the cut reaches no more).
 */
export function credentialsBelowGlob(glob: string, home: string): string[] {
  let segs = glob.split("/").slice(1)
  const deep = segs.findIndex((x) => x.includes("**"))
  if (deep >= 0) segs = segs.slice(0, deep)
  const out: string[] = []
  for (const loc of [...HOME_SECRETS.map((x) => `${home}/${x}`), ...located(home)]) {
    const parts = loc.split("/").slice(1)
    if (segs.length <= parts.length && segs.every((x, i) => segmentRegex(x).test(parts[i]!))) out.push(loc)
  }
  return out
}

/** A home's credential locations a walk of a folder above it reaches (`.ssh`, `.aws`, `.netrc`, ...). */
export function homeSecrets(home: string): string[] {
  return HOME_SECRETS.map((s) => `${home}/${s}`)
}

/** The credential locations a recursive read of `dir` reaches (ignoring case, as a case-insensitive file system would). */
export function credentialsBelow(dir: string, home: string): string[] {
  // the home's length first: no two (home, folder) pairs share a key
  const key = `${home.length}:${home}${dir}`
  let found = below.get(key)
  if (!found) {
    if (below.size >= 256) below.clear()
    found = locationsBelow(dir, home)
    below.set(key, found)
  }
  // a copy: the caller may add to what it is given
  return found.slice()
}

// what a recursive read of a folder reaches depends on the folder and the home alone (the walk compares
// it with a few hundred locations): kept per pair, bounded; agents search the same folders again and again
const below = new Map<string, string[]>()

function locationsBelow(dir: string, home: string): string[] {
  const out: string[] = []
  if (isInsideFold(dir, home)) for (const s of HOME_SECRETS) out.push(`${home}/${s}`)
  // a location shorter than the folder cannot be below it (most folders searched are deep in the workspace)
  for (const path of located(home)) if (path.length >= dir.length && isInsideFold(dir, path)) out.push(path)
  if (dir.length <= 7 || OTHER_HOME.test(dir)) otherHomes(dir, out)
  return out
}

// other accounts' homes, by where they usually are (the account list is the policy's to read): a walk
// of /, /home, /root or /home/bob reaches their secrets (as a path glob for /home/*: the path rules
// judge it below every home)
const OTHER_HOME = /^\/(root|home|Users)(\/|$)/i

function otherHomes(dir: string, out: string[]): void {
  for (const base of ["/root", "/home/*", "/Users/*"]) {
    const parent = base.endsWith("/*") ? base.slice(0, -2) : base
    // the walk holds every such home (/, /home, /root), or is in one of them (/home/bob, /root/.config)
    if (isInsideFold(dir, parent)) for (const s of HOME_SECRETS) out.push(`${base}/${s}`)
    else if (isInsideFold(parent, dir)) {
      const at = base === parent ? parent : dir.split("/").slice(0, 3).join("/")
      for (const path of inHome(at)) if (isInsideFold(dir, path)) out.push(path)
    }
  }
}

// the home-relative credential locations below one home, built once per home (a few homes per process;
// the cache is bounded: a command can name any number of them)
const inHomes = new Map<string, string[]>()

function inHome(at: string): string[] {
  let paths = inHomes.get(at)
  if (!paths) {
    if (inHomes.size >= 32) inHomes.clear()
    paths = []
    for (const c of CREDENTIALS) if (c.startsWith("~/")) paths.push(at + c.slice(1))
    inHomes.set(at, paths)
  }
  return paths
}

let locatedHome: string | undefined
let locatedPaths: string[] = []

// the credential locations with `~` expanded, for the last home asked (one per process in practice)
function located(home: string): string[] {
  if (home !== locatedHome) {
    locatedPaths = CREDENTIALS.map((c) => (c.startsWith("~/") ? home + c.slice(1) : c))
    locatedHome = home
  }
  return locatedPaths
}

/**
 * The trees a recursive read walks following the links it meets, marked for the caller to look up on
 * disk where those links lead (nothing before the run can list a tree's links).
 */
export function followedWalks(part: Part, home: string): TouchedPath[] {
  if (!followsLinks(part)) return NO_PATHS
  return walkRoots(part, home).map((path) => ({ path, access: "read", follow: true }))
}

// the directories a recursive reader walks: its operands after the pattern, else its directory ("/"
// when that is not known)
function walkRoots(part: Part, home: string): string[] {
  const r = options(part)
  const ops = r?.reading.operands ?? operands(part.words, part.program === "git" ? 2 : 1)
  const pattern = part.program === "git" ? r?.sub === "grep" && !r.reading.valued.some((v) => v.name === "e" || v.name === "f") : PATTERN_FIRST.has(part.program) && !patternGiven(part.program, part.words)
  const dirs = pattern ? ops.slice(1) : [...ops, ...compared(part, r)]
  const roots: string[] = []
  if (!dirs.length) roots.push(...(part.cwd ?? ["/"]))
  for (const d of dirs) roots.push(...(resolveWord(d, part.cwd, home) ?? ["/"]))
  return roots
}

/**
 * diff DIR FILE compares DIR/FILE's last name with FILE (`diff ~ .netrc` reads ~/.netrc), and so does
 * --from-file/--to-file with each operand: for every two files it compares, each read as a folder
 * holding the other's last name (which of them is a folder is known only on disk).
 */
function pairedReads(part: Part, home: string): TouchedPath[] {
  const r = options(part)
  if (!r) return []
  const words = [...r.reading.operands, ...compared(part, r)].filter((w) => w.value !== undefined && w.value !== "-")
  const out: TouchedPath[] = []
  for (const dir of words) {
    const paths = resolveWord(dir, part.cwd, home)
    if (!paths) continue
    for (const other of words) {
      const name = other === dir ? "" : other.value!.replace(/\/+$/, "").split("/").pop()!
      if (name === "" || name === "." || name === "..") continue
      for (const p of paths) out.push({ path: `${p.replace(/\/+$/, "")}/${name}`, access: "read" })
    }
  }
  return out
}

// diff --from-file=X / --to-file=X (any unique prefix) name a folder compared with every operand: X is walked too
function compared(part: Part, r: Options | undefined): Word[] {
  if (part.program !== "diff") return []
  const out: Word[] = []
  for (const v of r?.reading.valued ?? []) if ((v.name === "from-file" || v.name === "to-file") && v.value) out.push(v.value)
  return out
}

/**
 * Whether a recursive read follows the symbolic links it meets while walking (a repository can ship
 * `docs -> /home/me/.aws`). A link named as an operand is resolved like any path; `grep -r`, and rg, ag
 * and ack without their follow option, do not follow the ones they meet; diff -r does unless told not to.
 */
function followsLinks(part: Part): boolean {
  const p = part.program
  if (!FOLLOWERS.has(p) || !recursive(part)) return false
  const r = options(part)
  if (!r) return false
  if (p === "diff") return !r.marks.has("no-dereference")
  return r.marks.has("R") || r.marks.has("dereference-recursive") || r.marks.has("L") || r.marks.has("f") || r.marks.has("follow")
}

const MAY_RECURSE = new Set(["git", "grep", "egrep", "fgrep", "diff"])
// the recursive readers that can follow the links they meet
const FOLLOWERS = new Set(["grep", "egrep", "fgrep", "rg", "ag", "ack", "diff"])

function recursive(part: Part): boolean {
  if (ALWAYS_RECURSIVE.has(part.program)) return true
  if (!MAY_RECURSE.has(part.program)) return false
  // git: only grep and diff walk folders (decided before reading its options: this runs for every git command)
  if (part.program === "git" && part.words[1]?.value !== "grep" && part.words[1]?.value !== "diff") return false
  const r = options(part)
  if (!r) return false
  if (part.program === "git") {
    if (r.sub === "grep") return part.words.slice(2).some((w) => (w.value ?? "").length > 6 && "--no-index".startsWith(w.value!))
    // `git diff A B` compares two files or folders like diff -r: with --no-index, or by itself when one
    // of them is outside the repository (which this cannot know: two operands may be two folders)
    return r.sub === "diff" && (r.marks.has("no-index") || r.reading.operands.length === 2)
  }
  if (r.marks.has("r") || r.marks.has("R") || r.marks.has("recursive") || r.marks.has("dereference-recursive")) return true
  // grep -d ACTION, --directories=ACTION: ACTION may be abbreviated (`-d rec`); one not known may be recurse
  return r.reading.valued.some((v) => (v.name === "d" || v.name === "directories") && (v.value?.value === undefined || (v.value.value.length >= 3 && "recurse".startsWith(v.value.value))))
}

// the options that make a reader walk folders or follow the links it meets, marked so that getopt
// reports them however they are spelled (`--recur`, `-inr`, `--dereference-r`)
const MARKS = byName<string>({
  grep: "r R recursive dereference-recursive", diff: "r recursive no-dereference", rg: "L follow hidden u unrestricted", ag: "f follow hidden u unrestricted", ack: "follow", "git diff": "no-index",
})
const marked = new Map<string, Compiled>()

interface Options {
  reading: OptionReading
  /** the marked options given, by canonical name */
  marks: Set<string>
  /** git's subcommand */
  sub?: string
}

// one part's options are read once for its recursion, its links and its walk roots
const readings = new WeakMap<Part, Options | null>()

function options(part: Part): Options | undefined {
  let r = readings.get(part)
  if (r === undefined) readings.set(part, (r = readPart(part) ?? null))
  return r ?? undefined
}

function readPart(part: Part): Options | undefined {
  const git = part.program === "git"
  const sub = git ? part.words[1]?.value : undefined
  const name = git ? `git ${sub}` : part.program === "egrep" || part.program === "fgrep" ? "grep" : part.program
  let spec = marked.get(name)
  if (!spec) {
    const base = git ? (sub === undefined ? undefined : gitOptions(sub)) : known(name)?.options
    if (!base) return undefined
    const effects = new Map(base.effects)
    for (const n of (MARKS.get(name) ?? "").split(" ")) if (n) effects.set(n, "run")
    spec = { ...base, effects }
    marked.set(name, spec)
  }
  const reading = readOptions(part.words.slice(git ? 2 : 1), spec)
  const names = MARKS.get(name) ?? ""
  const marks = new Set(reading.valued.filter((v) => v.effect === "run" && ` ${names} `.includes(` ${v.name} `)).map((v) => v.name))
  return sub === undefined ? { reading, marks } : { reading, marks, sub }
}
