// The options of git's reading subcommands that only read (git's parse-options: unique prefixes, `--no-`
// forms). A reading subcommand with any other option is not safe. Pure data.
import { byName } from "./options.ts"
import { compileOptions, type Compiled, type OptionList } from "./getopt.ts"

const DIFF_SHORT = "psuzRabwWhU::M::C::B::D1lS:G:O:X::"
const DIFF_LONG = "patch no-patch unified= output= output-indicator-new= output-indicator-old= output-indicator-context= raw patch-with-raw indent-heuristic minimal patience histogram anchored= diff-algorithm= stat? compact-summary numstat shortstat dirstat? cumulative dirstat-by-file? summary patch-with-stat name-only name-status submodule? color? color-moved? color-moved-ws= word-diff? word-diff-regex= color-words? renames rename-empty check ws-error-highlight= full-index binary abbrev? break-rewrites? find-renames? find-copies? find-copies-harder irreversible-delete skip-to= rotate-to= relative? text ignore-cr-at-eol ignore-space-at-eol ignore-space-change ignore-all-space ignore-blank-lines ignore-matching-lines= inter-hunk-context= function-context exit-code quiet ext-diff textconv ignore-submodules? src-prefix= dst-prefix= prefix default-prefix line-prefix= ita-invisible-in-index ita-visible-in-default cached staged merge-base no-index base ours theirs find-object= diff-filter= pickaxe-all pickaxe-regex stat-width= stat-name-width= stat-graph-width= stat-count= histogram minimal"
const LOG_SHORT = "n:iEFPL:gcmrtq"
const LOG_LONG = "oneline format= pretty? abbrev-commit encoding= expand-tabs? notes? show-notes? standard-notes show-signature relative-date date= parents children left-right graph show-linear-break? cherry-mark cherry-pick left-only right-only cherry walk-reflogs merge boundary simplify-by-decoration full-history dense sparse simplify-merges ancestry-path? max-count= skip= since= after= until= before= author= committer= grep-reflog= grep= all-match invert-grep regexp-ignore-case basic-regexp extended-regexp fixed-strings perl-regexp remove-empty merges min-parents= max-parents= first-parent exclude-first-parent-only not all branches? tags? remotes? glob= exclude= exclude-hidden= reflog alternate-refs single-worktree ignore-missing bisect stdin topo-order date-order author-date-order reverse walk? do-walk decorate? decorate-refs= decorate-refs-exclude= clear-decorations source use-mailmap mailmap follow log-size full-diff diff-merges= cc combined-all-paths dd remerge-diff since-as-filter= show-pulls count in-commit-order objects objects-edge unpacked object-names missing= show-origin"

const REV = { short: DIFF_SHORT + LOG_SHORT, long: `${DIFF_LONG} ${LOG_LONG}`, numeric: true, negatable: true, writes: "output", runs: "ext-diff textconv" }

const SUBS: Record<string, OptionList> = {
  log: REV, show: REV, whatchanged: REV, "rev-list": REV, shortlog: { ...REV, short: `${REV.short}nsecw::`, long: `${REV.long} numbered summary email group=` },
  diff: REV, "diff-tree": REV, "diff-index": REV, "diff-files": REV, "range-diff": { ...REV, long: `${REV.long} creation-factor= dual-color left-only right-only` },
  status: { short: "sbu::zv", long: "short branch show-stash porcelain? long verbose untracked-files? ignore-submodules? ignored? column? ahead-behind renames find-renames? null", negatable: true },
  blame: { short: "bcefl:M::C::npsS:tw L:", long: "root show-stats score-debug show-name show-number porcelain line-porcelain incremental encoding= contents= date= progress ignore-rev= ignore-revs-file= color-lines color-by-age minimal abbrev? reverse first-parent", negatable: true },
  annotate: { short: "bcefl:M::C::npsS:tw L:", long: "root show-stats encoding= contents= date= ignore-rev= ignore-revs-file= abbrev? reverse first-parent", negatable: true },
  branch: { short: "arvl", long: "all remotes verbose list contains= no-contains= merged= no-merged= points-at= format= sort= column? color? show-current ignore-case omit-empty abbrev?", negatable: true },
  tag: { short: "ln::", long: "list contains= no-contains= merged= no-merged= points-at= format= sort= column? color? ignore-case omit-empty", negatable: true },
  remote: { short: "vn", long: "verbose" },
  // --file, --blob and --includes read other files (an include.path can name any file): not read-only
  config: { short: "lz", long: "get get-all get-regexp get-urlmatch list show-origin show-scope name-only null global system local worktree type= bool int bool-or-int path expiry-date default=", negatable: true },
  stash: REV, reflog: REV,
  worktree: { short: "vz", long: "porcelain verbose expire=" },
  submodule: { short: "qn:", long: "quiet cached recursive files summary-limit=" },
  bisect: {},
  "rev-parse": {
    short: "q", long: "abbrev-ref? symbolic symbolic-full-name verify quiet short? show-toplevel show-prefix show-cdup git-dir git-common-dir absolute-git-dir is-inside-work-tree is-inside-git-dir is-bare-repository is-shallow-repository sq-quote sq local-env-vars resolve-git-dir= git-path= show-superproject-working-tree shared-index-path show-object-format? show-ref-format default= prefix= all branches? tags? remotes? glob= exclude= disambiguate= since= until= after= before= not revs-only no-revs flags no-flags keep-dashdash stop-at-non-option stuck-long path-format= end-of-options",
  },
  "ls-files": { short: "cdmoiskuzt vfx:X:", long: "cached deleted modified others ignored stage killed directory empty-directory unmerged resolve-undo exclude= exclude-from= exclude-per-directory= exclude-standard error-unmatch with-tree= full-name recurse-submodules abbrev? debug eol deduplicate sparse format=", negatable: true },
  "ls-tree": { short: "drtlz", long: "long name-only name-status object-only full-name full-tree abbrev? format=" },
  "cat-file": { short: "tsep", long: "batch? batch-check? batch-command? batch-all-objects buffer follow-symlinks unordered allow-unknown-type textconv filters path= mailmap use-mailmap z Z", runs: "textconv filters" },
  grep: {
    short: "aiIwvhHEGFPnlLzcoqe:f:A:B:C:WpO::", numeric: true, negatable: true,
    long: "cached untracked index exclude-standard recurse-submodules text textconv ignore-case word-regexp invert-match full-name extended-regexp basic-regexp perl-regexp fixed-strings line-number column files-with-matches name-only files-without-match null count color? break heading show-function context= after-context= before-context= function-context threads= max-depth= max-count= only-matching quiet all-match and or not open-files-in-pager?",
    runs: "O open-files-in-pager textconv",
  },
  describe: { long: "all tags contains abbrev= candidates= exact-match debug long match= exclude= always first-parent dirty? broken?", negatable: true },
  version: { long: "build-options" },
  help: { short: "ag", long: "all guides config verbose external-commands aliases" },
  "count-objects": { short: "vH", long: "verbose human-readable" },
  "check-ignore": { short: "qvnz", long: "quiet verbose index non-matching stdin" },
  "merge-base": { short: "a", long: "all octopus independent is-ancestor fork-point" },
  "name-rev": { long: "tags refs= exclude= all annotate-stdin name-only undefined always" },
  "show-ref": { short: "qsd", long: "head heads branches tags verify exists hash? abbrev? dereference quiet" },
  "for-each-ref": { long: "count= shell perl python tcl sort= format= color? points-at= merged= no-merged= contains= no-contains= ignore-case omit-empty exclude= include-root-refs stdin" },
  var: { short: "l" },
  cherry: { short: "v", long: "abbrev?" },
  "show-branch": { short: "ar", long: "all remotes topo-order date-order current color? more? list merge-base independent no-name sha1-name sparse reflog?" },
  "verify-commit": { short: "v", long: "verbose raw" },
  "verify-tag": { short: "v", long: "verbose raw format=" },
  fsck: { short: "v", long: "unreachable dangling root tags cache reflogs full connectivity-only strict verbose progress name-objects", negatable: true },
  "check-attr": { short: "az", long: "all cached stdin source=" },
}

const RAW: ReadonlyMap<string, OptionList> = byName(SUBS)
const compiled = new Map<string, Compiled>()

/** The compiled option list of a git reading subcommand (compiled on first use). */
export function gitOptions(sub: string): Compiled | undefined {
  let c = compiled.get(sub)
  if (c) return c
  const list = RAW.get(sub)
  if (!list) return undefined
  c = compileOptions(list)
  compiled.set(sub, c)
  return c
}

/** `-v`, a short bundle holding v (`-sv`), or `--verbose` by any prefix git's parse-options takes (`--verb`,
 *  `--v`): git status shows the staged diff, git remote the URLs. */
export function gitVerbose(flag: string | undefined): boolean {
  if (flag === undefined) return false
  if (flag.startsWith("--")) return flag.length > 2 && "--verbose".startsWith(flag)
  return /^-[a-z]*v/.test(flag)
}

/** How many times a verbose option is given as a word of its own (`-v -v`, `--verb --verb`; `-vv` counts once). */
export function gitVerboseWords(flags: readonly string[]): number {
  return flags.filter((f) => f === "-v" || (f.startsWith("--") && gitVerbose(f))).length
}

