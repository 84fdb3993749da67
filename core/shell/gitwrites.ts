// The files and directories git subcommands write that their options and operands name: the clone's
// and init's directory, --separate-git-dir, `worktree add PATH`, `submodule add REPO PATH`,
// `checkout-index --prefix=`, `archive -o`, `bundle create FILE`, `format-patch -o DIR`, `bugreport -o`,
// `diagnose -o`, `index-pack -o`, `pack-objects BASE`, `read-tree --prefix=` (with -u it checks the
// files out there), `subtree add --prefix=`, `apply`/`am --directory=` (the diff's files land below it),
// `archive --prefix=` (the members' folder: `git archive --prefix=.git/hooks/ HEAD | tar x` writes
// there), `mv SRC... DEST` (DEST/NAME), and `--work-tree=DIR` of every command that may write the work
// tree (checkout, restore, stash, reset...: the tracked files land in DIR) (`--output`, any
// subcommand's, is judged in assess.ts).
// Each is judged as a write (outside the workspace high, rc files and protected paths critical). Pure.
import type { Finding } from "./raw.ts"
import type { View } from "./table.ts"
import type { Word } from "./word.ts"
import { writeVerdict } from "./paths.ts"
import { resolveWord } from "./cwd.ts"
import { namedIn } from "./copyopts.ts"
import { isInside } from "../base/paths.ts"

interface Spec {
  /** short letters that take a value */
  short: string
  /** long names that take a value (`--name=V` or `--name V`, any unique prefix) */
  long: string[]
  /** the options (short letter or long name) whose value is written */
  writes: string[]
  /** the operands written (by index), by the subcommand's own subcommand where it has them (`worktree add`) */
  operands: number[] | Record<string, number[]>
  /** the repository operand a missing directory operand is named after (clone, submodule add) */
  derived?: number
  /** the last operand is where the others land (`git mv`) */
  landing?: true
  /** the written values are taken from the top of the work tree wherever git runs (apply/am
   *  --directory, read-tree --prefix): judged from there too (the workspace's top) */
  fromTop?: true
}

const SPECS: Record<string, Spec> = {
  clone: {
    short: "obujc", writes: ["separate-git-dir"], operands: [1], derived: 0,
    long: ["origin", "branch", "upload-pack", "reference", "reference-if-able", "separate-git-dir", "depth", "shallow-since", "shallow-exclude", "config", "server-option", "jobs", "filter", "bundle-uri", "template", "ref-format", "revision"],
  },
  init: { short: "b", long: ["template", "separate-git-dir", "object-format", "ref-format", "initial-branch"], writes: ["separate-git-dir"], operands: [0] },
  worktree: { short: "bB", long: ["reason"], writes: [], operands: { add: [0], move: [1] } },
  submodule: { short: "b", long: ["branch", "name", "reference", "depth"], writes: [], operands: { add: [1] }, derived: 0 },
  "checkout-index": { short: "", long: ["prefix", "stage"], writes: ["prefix"], operands: [] },
  archive: { short: "o", long: ["output", "format", "prefix", "remote", "exec", "add-file", "add-virtual-file", "mtime"], writes: ["o", "prefix"], operands: [] },
  "read-tree": { short: "", long: ["prefix", "index-output", "exclude-per-directory"], writes: ["prefix", "index-output"], operands: [], fromTop: true },
  subtree: { short: "Pmb", long: ["prefix", "message", "annotate", "branch", "onto"], writes: ["P", "prefix"], operands: [] },
  apply: { short: "pC", long: ["exclude", "include", "directory", "whitespace", "build-fake-ancestor"], writes: ["directory", "build-fake-ancestor"], operands: [], fromTop: true },
  am: { short: "pC", long: ["directory", "exclude", "include", "whitespace", "resolvemsg", "patch-format", "quoted-cr", "empty"], writes: ["directory"], operands: [], fromTop: true },
  bundle: { short: "", long: ["version"], writes: [], operands: { create: [0] } },
  bugreport: { short: "os", long: ["output-directory", "suffix", "diagnose"], writes: ["o", "output-directory"], operands: [] },
  diagnose: { short: "os", long: ["output-directory", "suffix", "mode"], writes: ["o", "output-directory"], operands: [] },
  "index-pack": { short: "o", long: ["keep", "index-version", "threads", "max-input-size", "object-format", "promisor"], writes: ["o"], operands: [] },
  // `git pack-objects BASE` writes BASE-<hash>.pack and .idx (not with --stdout)
  "pack-objects": { short: "", long: [], writes: [], operands: [0] },
  // `git mv SRC... DEST`: DEST, and DEST/NAME when DEST is a directory (copyopts.ts landings)
  mv: { short: "", long: [], writes: [], operands: [], landing: true },
  "format-patch": {
    short: "ovN", writes: ["o", "output-directory"], operands: [],
    long: ["output-directory", "reroll-count", "subject-prefix", "in-reply-to", "to", "cc", "from", "signature", "signature-file", "cover-from-description", "base", "range-diff", "interdiff", "creation-factor", "add-header", "suffix", "filename-max-length", "start-number", "description-file", "output"],
  },
}

// what reads the work tree without writing it: anything else given --work-tree=DIR may write DIR
const READS_TREE = new Set([
  "status", "diff", "diff-files", "diff-index", "diff-tree", "log", "show", "ls-files", "ls-tree", "grep", "blame", "annotate", "describe",
  "rev-parse", "rev-list", "shortlog", "whatchanged", "cat-file", "check-ignore", "check-attr", "config", "var", "help", "version",
  "add", "commit", "count-objects", "fsck", "name-rev", "for-each-ref", "show-ref", "branch", "tag", "remote", "fetch", "push", "reflog", "notes",
])

/** Judge the paths a git subcommand writes (v.args[0] is the subcommand: global options are gone). */
export function gitWrites(v: View, out: Finding[]): void {
  const sub = v.args[0]?.value
  // a work tree outside the workspace is judged where git runs (readonly.ts: git-elsewhere)
  const tree = v.part.git?.workTree
  if (tree && (sub === undefined || !READS_TREE.has(sub)) && inWorkspace(v, tree)) judge(v, out, [tree], sub ?? "(no subcommand)", "--work-tree")
  const spec = sub === undefined ? undefined : SPECS[sub]
  if (!spec) return
  let args = v.args.slice(1)
  let indexes = spec.operands
  if (!Array.isArray(indexes)) {
    // `git worktree add`, `git submodule [--quiet] add`, `git bundle create`: options may come before it
    const at = args.findIndex((a) => a.value === undefined || !a.value.startsWith("-"))
    if (at < 0) return
    if (args[at]!.value === undefined) {
      out.push({ name: "write-files", level: "high", reason: `git ${sub} ${args[at]!.text}: a subcommand that is not static can write anywhere` })
      return
    }
    indexes = indexes[args[at]!.value!] ?? []
    if (!indexes.length) return
    args = args.slice(at + 1)
  }
  const { operands, written } = parse(args, spec)
  const targets = [...written, ...indexes.map((i) => operands[i]).filter((w): w is Word => w !== undefined)]
  if (spec.fromTop) for (const w of written) if (w.value !== undefined && !w.value.startsWith("/") && !w.tilde) targets.push({ ...w, text: `${v.place.workspace}/${w.value}`, value: `${v.place.workspace}/${w.value}` })
  if (spec.landing && operands.length > 1) targets.push(operands[operands.length - 1]!, ...namedIn(operands.slice(0, -1), operands[operands.length - 1]!))
  const missing = spec.derived !== undefined && indexes.some((i) => operands[i] === undefined) ? derivedDir(operands[spec.derived]) : undefined
  if (missing) targets.push(missing)
  judge(v, out, targets, sub!)
}

function judge(v: View, out: Finding[], targets: Word[], sub: string, how = "writes there"): void {
  // `git -C DIR`: relative paths are taken from DIR (a -C that is not static leaves the folder unknown)
  let cwd = v.part.cwd
  for (const d of v.part.git?.chdirs ?? []) cwd = cwd === null || d.value === undefined ? null : resolveWord(d, cwd, v.place.home)
  for (const t of targets) {
    if (t.value === "-") continue
    // the path checks take v.writes from the folder git starts in: hand them the -C-relative paths
    const moved = cwd !== v.part.cwd && cwd !== null && t.value !== undefined ? resolveWord(t, cwd, v.place.home) : null
    if (moved) for (const p of moved) v.writes.push({ ...t, text: p, value: p, tilde: false })
    else v.writes.push(t)
    const verdict = writeVerdict(t, cwd, v.place)
    if (verdict) out.push({ name: "write-files", level: verdict.level, reason: how === "--work-tree" ? `git --work-tree=${t.text} ${sub} may write the tracked files there: ${verdict.reason}` : `git ${sub} writes there: ${verdict.reason}` })
  }
}

function inWorkspace(v: View, w: Word): boolean {
  const paths = w.value === undefined ? null : resolveWord(w, v.part.cwd, v.place.home)
  return paths !== null && paths.every((p) => isInside(v.place.workspace, p))
}

// git's parse-options: `--name=V`, `--name V` (any unique prefix), `-xV`, `-x V`, bundles (`-qo F`), `--` ends options
function parse(args: Word[], spec: Spec): { operands: Word[]; written: Word[] } {
  const operands: Word[] = []
  const written: Word[] = []
  let done = false
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!
    const a = w.value
    if (done || a === undefined || !a.startsWith("-") || a === "-") {
      operands.push(w)
      continue
    }
    if (a === "--") {
      done = true
      continue
    }
    if (a.startsWith("--")) {
      const eq = a.indexOf("=")
      const given = a.slice(2, eq < 0 ? undefined : eq)
      const name = spec.long.find((n) => n === given) ?? spec.long.find((n) => given.length > 0 && n.startsWith(given))
      if (!name) continue
      const value = eq >= 0 ? attached(w, a.slice(eq + 1)) : args[++i]
      if (value && spec.writes.includes(name)) written.push(value)
      continue
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!
      if (!spec.short.includes(c)) continue
      const value = j + 1 < a.length ? attached(w, a.slice(j + 1)) : args[++i]
      if (value && spec.writes.includes(c)) written.push(value)
      break
    }
  }
  return { operands, written }
}

// an option's attached value: bash expands no `~` there (`-o~/x`, `--prefix=~/x` stay as written)
function attached(w: Word, value: string): Word {
  return { ...w, text: value, value, tilde: false }
}

// `git clone URL` with no directory: git names it after the repository (`a/b.git` -> b, `.` -> the
// folder's own name); that name is judged where git runs. Not static: the folder it runs in is judged.
function derivedDir(repo: Word | undefined): Word | undefined {
  if (!repo) return undefined
  const name = repo.value?.replace(/\/+$/, "").replace(/(\/\.git|\.git|\.bundle)$/, "").split(/[/:]/).pop()
  const value = name && name !== "." && name !== ".." ? name : "."
  return { ...repo, text: value, value, tilde: false, glob: false }
}
