// A partial clone (`git clone --filter=blob:none`, scalar, an archive's .git with `remote.X.promisor`)
// lacks objects, and git fetches each one a command needs from the promisor remote as it reads: `git
// show`, `log -p`, `diff REV`, `grep REV`, `cat-file`, `blame` run `git fetch`. That is network, and the
// transport keys that otherwise act only in fetch/pull/push (remote.*.uploadpack, core.sshCommand,
// protocol.*.allow for ext::, credential.helper, core.askPass) then run in those reads. Pure over the
// config entries given.
import { configKeyRisk } from "./gitkeys.ts"
import type { ConfigEntry } from "./gitconfig.ts"

/** The commands that read no object (a config, the refs' names, the index): no lazy fetch. */
export const NO_OBJECTS = ["help", "version", "config", "var", "remote", "ls-files", "check-ignore", "count-objects"]
// the commands that read only commits, refs, the index or the config, which a partial clone has (its
// filters omit blobs and trees only); every other command can read an object and fetch it (an unknown
// one, a new one, `git reflog -p`): the list is of what stays allowed, not of what fetches
const REFS_ONLY = [
  ...NO_OBJECTS, "branch", "tag", "for-each-ref", "show-ref", "symbolic-ref", "update-ref", "merge-base", "name-rev",
  "check-ref-format", "rev-parse", "describe", "show-branch", "verify-commit", "verify-tag", "add", "init", "stripspace",
  "interpret-trailers", "column", "hash-object", "worktree-list", "reflog",
  // the index and the refs only (a commit's tree comes from the index; rm and mv compare ids, not contents),
  // and the housekeeping that packs what is there
  "commit", "mv", "rm", "clean", "gc", "maintenance", "prune", "repack", "pack-refs", "prune-packed", "commit-graph",
]

/** The command a lazy-fetch layer is asked about: a refs-only command whose arguments make it read a tree or
 *  a file's content counts as `show` (`git rev-parse HEAD~1:f`, `git ls-files --with-tree=REV`, `git describe
 *  --dirty`, `git reflog -p`, `git worktree add`). `args`: the words after the subcommand (undefined: not known). */
export function lazyCommand(command: string, args: readonly (string | undefined)[]): string {
  const reads = READS_OBJECTS[command]
  if (command === "worktree") return ["list", "prune", "lock", "unlock"].includes(args.find((a) => a === undefined || !a.startsWith("-")) ?? "") ? "worktree-list" : "show"
  if (reads && args.some((a) => a === undefined || reads.test(a))) return "show"
  // `git reflog [show] REF PATH`: a path limits the walk to the commits that change it (their trees)
  if (command === "reflog") return args.filter((a) => !a!.startsWith("-") && !["show", "list", "exists"].includes(a!)).length > 1 ? "show" : command
  return command
}

// the arguments that make a refs-only command read trees or blobs: `REV:path` (a tree walk), ls-files'
// --with-tree (any abbreviation), describe's --dirty/--broken (a diff against HEAD's tree), reflog's log
// options that print changes (-p, --stat, --name-only, a path...; anything but its subcommands and refs)
const READS_OBJECTS: Record<string, RegExp> = {
  "rev-parse": /^[^-].*:|^--(?:verify|default)=.*:/,
  "ls-files": /^--w(?:i(?:t(?:h(?:-(?:t(?:r(?:ee?)?)?)?)?)?)?)?(?:=|$)/,
  describe: /^--(?:d(?:i(?:r(?:ty?)?)?)?|b(?:r(?:o(?:k(?:en?)?)?)?)?)(?:=|$)/,
  reflog: /^-(?!-(?:all|date|oneline|abbrev-commit|no-abbrev|single-worktree|decorate)\b)/,
}

// what a superproject's command runs in its submodules (git status and git diff run in each one)
const RECURSING = ["status", "diff", "grep", "submodule", "checkout", "switch", "restore", "reset", "read-tree", "fetch", "pull", "push", "clone"]

/** One layer of a repository answer: `lazy:LEVEL:[COMMANDS] WHY`, COMMANDS `^A,B` meaning all but A and B. */
export type LazyLayer = `lazy:${string}`

/**
 * The layer a repository's config entries (all its config files together) add, or undefined when it
 * is no partial clone. `where`: how the reason names the repository; `submodule`: only the commands a
 * superproject runs in its submodules count.
 */
export function lazyFetchLayer(entries: readonly ConfigEntry[], where: string, submodule = false): LazyLayer | undefined {
  const promisor = entries.find(isPromisor)
  if (!promisor) return undefined
  const marks = `${promisor.key}${promisor.value === null ? "" : ` = ${promisor.value.slice(0, 60)}`}`
  const transport = entries.map((e) => configKeyRisk(e.key, e.value)).filter((r) => r?.commands?.includes("fetch"))
  const commands = submodule ? RECURSING.join(",") : `^${(transport.length ? NO_OBJECTS : REFS_ONLY).join(",")}`
  const fetches = `${where}, a partial clone (${marks}): git fetches the objects it lacks from the promisor remote`
  if (transport.length) return `lazy:high:[${commands}] ${fetches}, and that fetch runs what its config names (${transport.map((r) => r!.why).join("; ")})`
  return `lazy:medium:[${commands}] ${fetches} over the network`
}

/** A layer's level, commands and reason, when it applies to `command`; undefined when it does not. */
export function lazyLayerFor(layer: string, command: string): { level: "high" | "medium"; reason: string } | undefined {
  const m = /^lazy:(high|medium):\[([^\]]*)\] (.*)$/s.exec(layer)
  if (!m) return undefined
  const list = m[2]!
  const applies = list.startsWith("^") ? !list.slice(1).split(",").includes(command) : list.split(",").includes(command)
  return applies ? { level: m[1] as "high" | "medium", reason: m[3]! } : undefined
}

// remote.X.promisor (a boolean: anything but false counts), extensions.partialClone naming a remote, or a
// remote's partialCloneFilter (git sets it with promisor; kept when promisor was edited out)
function isPromisor(e: ConfigEntry): boolean {
  const key = e.key.toLowerCase()
  if (key === "extensions.partialclone") return e.value !== null && e.value !== ""
  if (/^remote\..*\.partialclonefilter$/.test(key)) return e.value !== null && e.value !== ""
  if (/^remote\..*\.promisor$/.test(key)) return e.value === null || !/^(false|no|off|0|)$/i.test(e.value)
  return false
}
