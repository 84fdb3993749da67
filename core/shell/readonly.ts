// "Safe" is earned: a read-only program (or git reading subcommand) stays safe only when every option
// it is given is one we know only reads. Anything else is at least medium, with the option named;
// options that write name their target so path checks see it. Pure.
import type { Finding } from "./raw.ts"
import type { View } from "./table.ts"
import type { Word } from "./word.ts"
import { readOptions, type Compiled, type OptionReading } from "./getopt.ts"
import { known } from "./known.ts"
import { gitOptions } from "./known-git.ts"
import { judged, unknownLink, writeVerdict } from "./paths.ts"
import { isInside } from "../base/paths.ts"
import { resolveWord } from "./cwd.ts"
import { lazyCommand, lazyLayerFor } from "../base/gitpromisor.ts"
import { appendedOptions } from "./appendedopts.ts"
import { sysrootRead } from "./sysroot.ts"

/** Check a part's options against its allowlist; false when the program has none (not a read-only program). */
export function checkOptions(v: View, out: Finding[]): boolean {
  if (v.program === "git") {
    const sub = v.args[0]?.value
    const spec = sub === undefined ? undefined : gitOptions(sub)
    const away = elsewhere(v)
    const foreign = away ? undefined : embedded(v)
    // a git-dir file that leads outside (a link to a credential, another object store): every git
    // command can print what is there, a read no policy auto-approves; so is a partial clone's lazy
    // fetch that runs a program its config names
    if (foreign) out.push({ name: "git-embedded", level: foreign.level, reason: `git${sub === undefined ? "" : ` ${sub}`} in ${foreign.text}` })
    if (v.part.git?.bare) out.push({ name: "git-bare", level: "medium", reason: `git --bare uses ${bareFolder(v)} as a repository: its config is a file of the workspace` })
    if (!spec) {
      // a subcommand that changes a work tree outside the workspace (`git --work-tree=$HOME checkout --
      // .bashrc` writes the home directory from the workspace's repository) writes outside it
      if (away && sub !== undefined) out.push({ name: "git-elsewhere", level: "high", reason: `git ${sub} in ${away}, outside the workspace: it can change files there, and that repository's configuration can make git run programs` })
      return false
    }
    judge(v, `git ${sub}`, v.args.slice(1), spec, out)
    if (away) out.push({ name: "git-elsewhere", level: "medium", reason: `git ${sub} in ${away}, a repository outside the workspace: its configuration can make git run programs (core.fsmonitor, diff.external)` })
    return true
  }
  const k = known(v.program)
  if (!k) return false
  if (k.data) return true
  const reading = judge(v, v.program, v.args, k.options, out)
  // xargs and find -exec + add arguments at run time: for a program with options that write or run, those could be options
  if (v.part.appended && k.options.dangerous) out.push(unknown(v.program, "(arguments added at run time could be options)"))
  else appendedOptions(v.part, v.program, k.options, reading, out)
  sysrootRead(v, reading, out)
  if (k.plus) {
    const plus = reading.operands.find((w) => w.value === undefined || w.value.startsWith("+"))
    if (plus) out.push(unknown(v.program, `${plus.text} (a command for the pager)`))
  }
  if (k.outputOperand !== undefined) {
    for (const target of outputOperands(v.args, reading.operands, k.outputOperand, k.plusCount)) written(v, target, `${v.program} writes its output file`, out)
  }
  return true
}

/** The operands that may be the output file. A word before it that is not static or may be empty (`$o`)
 *  may be an option, a `+N` or nothing, so any later operand may be the output. GNU uniq takes `+N` as
 *  --skip-chars=N, not a file (after a `--` it is a file: then both readings are judged). */
function outputOperands(args: readonly Word[], operands: readonly Word[], at: number, plusCount: boolean): Word[] {
  const out = new Set<Word>()
  // a count too large for uniq's intmax_t is a file name again
  const files = plusCount ? operands.filter((w) => w.value === undefined || !/^\+0*\d{1,18}$/.test(w.value)) : operands
  if (files[at]) out.add(files[at]!)
  if (files !== operands && operands[at] && args.some((w) => w.value === "--")) out.add(operands[at]!)
  for (let i = 0; i < at && i < files.length; i++) {
    if (files[i]!.value !== undefined && !files[i]!.hollow) continue
    for (const w of files.slice(at + 1)) out.add(w)
    break
  }
  return [...out]
}

function judge(v: View, name: string, args: readonly Word[], spec: Compiled, out: Finding[]): OptionReading {
  const reading = readOptions(args, spec)
  if (reading.unknown) out.push(unknown(name, reading.unknown))
  for (const o of reading.valued) {
    if (o.effect === "run") {
      out.push({ name: "program-option", level: "high", reason: `${name} ${o.written} runs a program${o.value?.value ? ` (${o.value.value})` : ""}` })
    } else if (o.effect === "write") {
      // a write flag without a value (`yq -i`) writes the files it is given
      if (o.name === "s" || o.name === "split-exp") {
        out.push({ name: "write-files", level: "medium", reason: `${name} ${o.written} writes files its expression names` })
        continue
      }
      const targets = o.value ? [o.value] : reading.operands.slice(o.name === "i" || o.name === "inplace" ? 1 : 0)
      if (!targets.length) out.push({ name: "write-files", level: "medium", reason: `${name} ${o.written} writes files` })
      for (const t of targets) written(v, t, `${name} ${o.written} writes`, out)
    }
  }
  return reading
}

function written(v: View, target: Word, why: string, out: Finding[]): void {
  v.writes.push(target)
  const verdict = writeVerdict(target, v.part.cwd, v.place)
  if (verdict) out.push({ name: "write-files", level: verdict.level, reason: `${why}: ${verdict.reason}` })
}

function unknown(name: string, option: string): Finding {
  return { name: "unknown-option", level: "medium", reason: `${name} ${option}: not an option ccode knows to be read-only` }
}

/** The operands after a git subcommand, read with its option list (`branch --merged main` has none). */
export function gitOperands(v: View): Word[] {
  const spec = gitOptions(v.args[0]?.value ?? "")
  return spec ? readOptions(v.args.slice(1), spec).operands : v.args.slice(1)
}

/** Where git runs when that is outside the workspace (or cannot be known): a repository we did not vet. */
function elsewhere(v: View): string | undefined {
  const ws = v.place.workspace
  const dirs = v.part.git?.dirs ?? []
  const cwd = v.part.cwd
  if (cwd === null) return "a directory not known statically"
  if (v.part.git?.bareDir !== undefined) return `${v.part.git.bareDir} (a git directory whose config is not protected)`
  // a directory this command made a link (`ln -s /tmp/evil r && git -C r status`) is where the link leads
  const plain = !v.place.through && !v.place.realpath
  const away = (paths: string[]) => (plain ? paths.find((p) => !isInside(ws, p)) : (v.place.through && unknownLink(paths, v.place)) || judged(paths, v.place, false).find((p) => !isInside(ws, p)))
  const here = away(cwd)
  if (here) return here
  for (const w of dirs) {
    const paths = resolveWord(w, cwd, v.place.home)
    if (paths === null || w.value === undefined) return w.text
    const out = away(paths)
    if (out) return out
  }
  return undefined
}

// the folder `git --bare` takes for its git directory: where it starts after its -C options
function bareFolder(v: View): string {
  let at = v.part.cwd
  for (const w of v.part.git?.dirs ?? []) if (w.value !== undefined && at !== null && (w.text === w.value || w.tilde)) at = resolveWord(w, at, v.place.home)
  return at?.length === 1 ? at[0]! : "a folder not known before it runs"
}

const STATE = "the workspace's repository, whose git directory makes git read a file outside it: "

/** git started inside the workspace can still obey another repository's config: one embedded in the
 *  workspace (a bare repository or a folder with its own .git, committed or unpacked there), or one an
 *  earlier part of the command makes. Safe only where the repository is proven the workspace's own. */
function embedded(v: View): { text: string; level: "high" | "medium" } | undefined {
  const { gitRepo, wroteBefore, workspace, realpath } = v.place
  const cwd = v.part.cwd
  if ((!gitRepo && !wroteBefore) || cwd === null) return undefined
  const dirs = v.part.git?.dirs ?? []
  // `git -C a -C b` starts in a/b
  let starts = cwd
  for (const w of dirs) starts = resolveWord(w, starts, v.place.home) ?? []
  const found: { text: string; level: "high" | "medium" }[] = []
  for (const start of starts) {
    const answer = gitRepo?.(start)
    const lines = answer?.split("\n") ?? []
    for (const layer of lines.slice(0, -1)) {
      const lazy = lazyLayerFor(layer, lazyCommand(gitCommand(v), v.args.slice(1).map((a) => a.value)))
      if (lazy) found.push({ text: lazy.reason, level: lazy.level })
    }
    const text = embeddedRepo(v, start, lines.at(-1))
    // a git-dir file that leads outside is high for every command
    if (text) found.push({ text, level: text.startsWith(STATE) ? "high" : "medium" })
  }
  return found.find((f) => f.level === "high") ?? found[0]
}

function embeddedRepo(v: View, start: string, repo: string | undefined): string | undefined {
  const { wroteBefore, workspace, realpath } = v.place
  const scoped = repo?.startsWith("own:[") ? /^own:\[([^\]]*)\] (.*)$/s.exec(repo) : undefined
  if (scoped) {
    if (scoped[1]!.split(",").includes(gitCommand(v))) return `the workspace's repository, whose .git/config makes git ${gitCommand(v)} run a program or read a file (${scoped[2]})`
  } else if (repo?.startsWith("own:!")) return `${STATE}${repo.slice(5)}`
  else if (repo?.startsWith("own:")) return `the workspace's repository, whose .git/config makes git run a program (${repo.slice(4)})`
  else if (repo !== undefined && repo !== "own" && repo !== "none") return `${repo}, a repository inside the workspace that is not the workspace's own: its configuration can make git run programs (gpg.program, core.fsmonitor)`
  const real = realpath ? realpath(start) : start
  if (wroteBefore && (real !== (realpath ? realpath(workspace) : workspace) || !(repo === "own" || scoped))) {
    return `${start} after this command writes files: what it writes can be a repository whose configuration makes git run programs`
  }
  return undefined
}

// the git command a repository's config is asked about: `git log --help` is `git help log`; `git remote
// update`, `prune` and `show` without -n fetch from the remotes as `git fetch` does
function gitCommand(v: View): string {
  const sub = v.args[0]?.value ?? ""
  if (v.args.some((a) => a.value === undefined || a.value === "--help")) return "help"
  if (sub !== "remote") return sub
  const words = v.args.slice(1).map((a) => a.value!)
  const op = words.find((w) => !w.startsWith("-"))
  return op === "update" || op === "prune" || (op === "show" && !words.includes("-n")) ? "fetch" : sub
}
