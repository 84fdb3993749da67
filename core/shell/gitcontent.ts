// The git commands that print files' content without naming them: `git show`, `git log -p`, `git diff`,
// `git grep`, `git cat-file -p HASH`, `git stash show -p`, `git status -v` print what the history, the
// index or the work tree holds, a committed or tracked .env with the rest. Each is marked for the caller
// to look on disk at the names the repository holds (core/policy/gitcontent.ts): those a path rule
// names are judged as reads. Pure.
import { printsBinary } from "./binaryreads.ts"
import type { Part } from "./part.ts"
import type { GitContent, TouchedPath } from "./types.ts"
import type { Word } from "./word.ts"
import { resolveWord } from "./cwd.ts"
import { readOptions } from "./getopt.ts"
import { gitOptions, gitVerbose, gitVerboseWords } from "./known-git.ts"
import { operands } from "./part.ts"
import { objectPath } from "./touched.ts"
import { renamedObjects } from "./gitrenames.ts"

// the subcommands that print a diff or file content from the history by default or with -p
const PATCH_BY_DEFAULT = new Set(["show", "diff", "diff-tree", "diff-index", "diff-files", "stash", "range-diff", "format-patch", "archive", "fast-export"])
const PATCH_WHEN_ASKED = new Set(["log", "whatchanged", "reflog"])
// options that print only names or counts (a patch option given beside them prints the content again)
const NO_CONTENT = /^--(?:no-patch|stat|numstat|shortstat|name-only|name-status|raw|summary|dirstat|compact-summary|quiet|oneline-only|exit-code-only)(?:=|$)|^-s$/
const PATCH_LONG = /^--(?:patch|patch-with-stat|patch-with-raw|unified|cc|full-diff|remerge-diff|dd)(?:=|$)/
// a revision git is given as it is (never an option: no leading `-`)
const SAFE_REV = /^[A-Za-z0-9_][A-Za-z0-9_.\/~^@{}-]*$/
// options that leave which files git show and git diff print as git's own name listing has them
const SHOW_KEEPS = /^(?:-p|--patch|-u|-U\d*|--unified(?:=\d+)?|--stat|--format=.*|--pretty(?:=.*)?|--oneline|--color(?:=.*)?|--no-color|-w|-b|--ignore-all-space|--ignore-space-change|--word-diff(?:=.*)?|--abbrev-commit|--no-abbrev-commit|--minimal|--patience|--histogram|--textconv|--no-textconv|--ext-diff|--no-ext-diff)$/
const DIFF_KEEPS = new RegExp(`${SHOW_KEEPS.source.slice(0, -2)}|--cached|--staged|--merge-base)$`)
const cached = (flags: string[]) => flags.some((f) => f === "--cached" || f === "--staged")

// pathspec magic: `:^x`/`:!x` exclude x (git prints everything else), `:(top)`, `:(icase)`, `:(glob)`...
const MAGIC = /^:[(!^]/
// options that walk more than the refs: the reflogs, revisions read from stdin, other repositories' refs
const WIDER = /^(?:--walk-reflogs|--reflog|--stdin|--alternate-refs|--indexed-objects|--ignore-missing|-[^-]*g)$/
// a revision starting with an object id (abbreviated to 4 digits at least): `1a2b3c4`, `1a2b3c4~2`
const HASH = /^[0-9a-f]{4,64}(?![0-9a-z])/i
// every subcommand judged here
const SUBS = new Set([...PATCH_BY_DEFAULT, ...PATCH_WHEN_ASKED, "grep", "status", "cat-file"])
// the subcommands that read every file of a tree object named `REV:` or `REV:dir`
const TREE_READERS = new Set(["grep", "diff", "diff-tree", "archive"])
// short options whose value is the rest of the word: a cluster is read up to one of them
const VALUED_SHORT = "SGOnLXMCBDlIefA"

// what every part but git's gets: shared, never added to
const NO_PATHS: TouchedPath[] = []

/** The marks of a git part that prints content the repository holds; [] for every other part. */
export function gitContentReads(part: Part, home: string): TouchedPath[] {
  if (part.program !== "git" || part.cwd === null) return NO_PATHS
  const sub = part.words[1]?.value
  if (sub === undefined) return []
  if (!SUBS.has(sub)) return marks(part, renamedObjects(part, sub), home)

  const named: string[] = []
  const maybe: { rev: string; paths: string[] }[] = []
  const found = contentOf(part, sub, home, named, maybe)
  // the log family prints the commits' notes (unless --no-notes): a note can be a credential file's blob
  const notes = NOTES.has(sub) && !part.words.some((w) => w.value === "--no-notes") ? { notes: true as const } : undefined
  if (!found) return notes ? marks(part, notes, home) : []
  // a commit named by its hash may be one nothing reaches any more: git lists its names itself
  const hashes = named.flatMap((r) => r.split(/\.{2,3}/)).filter((r) => HASH.test(r))
  const hashed = found.history && !found.refsOnly && hashes.length ? { ...found, hashes } : found
  const settled = maybe.length ? { ...hashed, maybe } : hashed
  const text = printsBinary("git", part.words.slice(0, dash(part.words))) ? { text: true as const } : {}
  return marks(part, part.words.some((w) => SUBMODULES.test(w.value ?? "")) ? { ...settled, ...text, ...notes, submodules: true } : { ...settled, ...text, ...notes }, home)
}

const NOTES = new Set(["log", "show", "whatchanged"])

// the words before `--` (after it, pathspecs)
function dash(words: readonly Word[]): number {
  const at = words.findIndex((w, i) => i > 1 && w.value === "--")
  return at < 0 ? words.length : at
}

// the options that print the submodules' own diffs or search their files (any prefix git takes)
const SUBMODULES = /^--subm[a-z]*=diff$|^--recurse-s[a-z]*$/

function marks(part: Part, content: GitContent | undefined, home: string): TouchedPath[] {
  if (!content || part.cwd === null) return []
  let starts: string[] = part.cwd
  for (const d of part.git?.dirs ?? []) starts = resolveWord(d, starts, home) ?? []
  return starts.map((path) => ({ path, access: "read" as const, git: content }))
}

// `named`: gets the revisions the command names (plain words git takes as they are)
// `maybe`: gets the words before `--` with a `/` that git takes as a revision unless the work tree has
// that path (`feature/x`, `origin/main`, `refs/stash@{0}`): judged as revisions here, settled on disk
function contentOf(part: Part, sub: string, home: string, named: string[], maybe: { rev: string; paths: string[] }[]): GitContent | undefined {
  const words = part.words
  const dash = words.findIndex((w, i) => i > 1 && w.value === "--")
  const flags = (dash < 0 ? words.slice(2) : words.slice(2, dash)).map((w) => w.value ?? "").filter((f) => f.startsWith("-"))
  // the pickaxe (-G REGEX, -S TEXT) searches every diff's content: which commits or files match is the
  // content's oracle (`git log --all -G '^KEY=[A-M]'`), judged as the patch it searches
  const patch = flags.some(asksPatch) || flags.some(asksPickaxe)
  // the usual `git log`, `git status`: nothing more to read
  if ((PATCH_WHEN_ASKED.has(sub) && !patch) || (sub === "status" && !flags.some(gitVerbose))) return undefined
  const quiet = !patch && flags.some((f) => NO_CONTENT.test(f))
  const spec = gitOptions(sub)
  const ops = spec ? readOptions(words.slice(2), spec).operands : operands(words, 2)
  const after = (w: Word) => dash >= 0 && words.indexOf(w) > dash
  // `git grep PATTERN`: the first operand is the pattern unless -e/-f gave it
  const given = flags.some((f) => /^-[^-]*[ef]/.test(f) || f.startsWith("--regexp") || f === "--file")
  const args = sub === "grep" && !given ? ops.slice(1) : ops
  const within: string[] = []
  let broad = false
  let revs = 0
  let plain = true
  for (const w of args) {
    const v = w.value ?? ""
    const magic = MAGIC.test(v)
    const object = !after(w) && !magic && v.includes(":") && !v.includes("://")
    if (object) {
      // `HEAD~1:` and `HEAD~1:src` are trees: git grep and git diff read every file below them
      const inside = objectPath(v)
      revs++
      plain = false
      if (inside === undefined || !TREE_READERS.has(sub)) broad = true
      else for (const p of resolveWord({ ...w, value: inside, text: inside, tilde: false, glob: false }, part.cwd, home) ?? []) within.push(p)
    } else if (!after(w) && /^\.\.\.?[^./]/.test(v)) {
      // `..REV`, `...REV`: a range whose empty left end is HEAD, not a path
      revs++
      plain = false
    } else if (!after(w) && !magic && v.includes("/") && SAFE_REV.test(v)) {
      // `git show feature/x`: a revision for git unless a file of that name exists (both: git refuses)
      revs++
      named.push(v)
      maybe.push({ rev: v, paths: resolveWord(w, part.cwd, home) ?? [] })
    } else if (after(w) || magic || v.includes("/") || v === "." || v.startsWith(".")) {
      // a pathspec narrows what is shown; magic (`:(glob)`) or a glob does not narrow it for us
      if (/[*?[]/.test(v) || v.startsWith(":") || v === "." || v === "./") broad = true
      else for (const p of resolveWord(w, part.cwd, home) ?? []) within.push(p)
    } else {
      revs++
      if (SAFE_REV.test(v)) named.push(v)
      else plain = false
    }
  }
  // git itself can list the names `git show REV` or `git diff REV [REV]` prints (ccode/policy/gitcontent.ts)
  const asked = (kind: "show" | "diff", cached?: boolean): Pick<GitContent, "ask"> =>
    plain && revs === named.length && !broad ? { ask: { kind, revs: named, ...(cached ? { cached: true as const } : {}) } } : {}
  // `--full-diff`: a pathspec picks the commits, and each one's whole diff is printed
  const fullDiff = flags.some((f) => f.startsWith("--full-d"))
  const narrowed = within.length && !broad && !fullDiff ? { within } : {}
  // a glob or magic pathspec beside them: a word that is a path narrows nothing either
  if (broad) for (const m of maybe) m.paths = []
  // no revision named and no reflog walked: what the refs reach is all `git log -p`, `git show` and `git stash show` print
  // (`git stash show`: the first operand is `show`)
  const refsOnly = revs === (sub === "stash" ? 1 : 0) && (sub === "log" || sub === "whatchanged" || sub === "show" || sub === "stash") && !flags.some((f) => WIDER.test(f)) ? { refsOnly: true as const } : {}
  switch (sub) {
    case "grep":
      if (flags.some((f) => f === "--no-index")) return undefined
      return { ...(revs ? { history: true } : { index: "all" }), ...(flags.some((f) => f.startsWith("--untr")) ? { untracked: true } : {}), ...narrowed }
    case "status":
      return flags.some(gitVerbose) ? { index: "all", ...narrowed, ...(flags.some((f) => /^-[a-z]*v[a-z]*v/.test(f)) || gitVerboseWords(flags) > 1 ? {} : asked("diff", true)) } : undefined
    case "cat-file":
      // `git cat-file -p HASH`, `blob HASH`: an object named by its hash can be any committed file
      if (!(flags.some((f) => f === "-p" || f === "--textconv" || f === "--filters") || words[2]?.value === "blob")) return undefined
      if (args.some((w) => !(w.value ?? "").includes(":"))) return { history: true }
      // `REV:path`: the blob may have been committed under a credential's name before a rename
      return namedBlobs(args)
    case "diff":
    case "diff-index":
      if (quiet || flags.includes("--no-index")) return undefined
      if (revs) return { history: true, index: "all", ...narrowed, ...(sub === "diff" && flags.every((f) => DIFF_KEEPS.test(f)) ? asked("diff", cached(flags)) : {}) }
      return cached(flags) ? { index: "all", ...narrowed, ...(sub === "diff" && flags.every((f) => DIFF_KEEPS.test(f)) ? asked("diff", true) : {}) } : { index: "changed", ...narrowed }
    case "diff-files":
      return quiet ? undefined : { index: "changed", ...narrowed }
    case "stash":
      // `git stash list -p`: stash list takes git log's options, a patch prints every stash's changes
      if (words[2]?.value === "list" && patch && !quiet) return { history: true, ...narrowed }
      if (words[2]?.value !== "show" || quiet) return undefined
      return { history: true, ...refsOnly, ...narrowed }
    case "show":
      // `git show HEAD:.env` names its file (touched.ts judges it); pathspec magic (`:^a`, `:!a`, `:(top)`,
      // `:(exclude)x`) or a `:/text` commit search names no file: git shows the rest, or a whole commit
      if (quiet) return undefined
      // `git show REV:path` names its file (touched.ts judges it); its blob may have been committed under
      // a credential's name before a rename (`git mv .env notes.txt`): the blob's names are looked up
      if (args.length > 0 && args.every((w) => !after(w) && objectFile(w.value ?? ""))) return namedBlobs(args)
      return { history: true, ...refsOnly, ...narrowed, ...(flags.every((f) => SHOW_KEEPS.test(f)) ? asked("show") : {}) }
    default:
      if (PATCH_BY_DEFAULT.has(sub)) return quiet ? undefined : { history: true, ...narrowed }
      if (PATCH_WHEN_ASKED.has(sub) && patch) return { history: true, ...refsOnly, ...narrowed }
      return undefined
  }
}

// `REV:path` words naming a path (not `REV:`, a tree): their blobs' names are looked up
function namedBlobs(args: readonly Word[]): Pick<GitContent, "blobs"> | undefined {
  const blobs = args.map((w) => w.value ?? "").filter((v) => objectFile(v) && v.slice(v.indexOf(":") + 1).replace(/\/+$/, "") !== "")
  return blobs.length ? { blobs } : undefined
}

// `REV:path` or `:path` naming one file (`REV:` a tree: its names); not pathspec magic, not a search of commit messages
function objectFile(v: string): boolean {
  return v.includes(":") && !v.includes("://") && !MAGIC.test(v) && !v.startsWith(":/")
}

function asksPickaxe(flag: string): boolean {
  if (/^--pickaxe-regex$/.test(flag)) return true
  if (!/^-[^-]/.test(flag)) return false
  for (let i = 1; i < flag.length; i++) {
    const c = flag[i]!
    if (c === "G" || c === "S") return true
    if (VALUED_SHORT.includes(c)) return false
  }
  return false
}

function asksPatch(flag: string): boolean {
  if (PATCH_LONG.test(flag)) return true
  if (!/^-[^-]/.test(flag)) return false
  for (let i = 1; i < flag.length; i++) {
    const c = flag[i]!
    if (c === "p" || c === "u" || c === "U" || c === "L") return true
    if (VALUED_SHORT.includes(c)) return false
  }
  return false
}
