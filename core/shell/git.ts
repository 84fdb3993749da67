// git's global options (skipped to find the subcommand) and the settings that make git run a program:
// `-c core.pager=..`, `--upload-pack`, `rebase --exec`, ... Pure.
import type { Finding } from "./raw.ts"
import type { Word } from "./word.ts"

export interface GitView {
  /** index of the subcommand in the words (0 is `git`); words.length when there is none */
  sub: number
  findings: Finding[]
  /** command lines git would run (pager, ssh command, exec hooks): analysed as commands of their own */
  programs: string[]
  /** a command git runs as argv (`bisect run CMD ARGS`) */
  argv?: Word[]
  /** a value is not static where git would run it */
  unresolved?: string
  /** -C, --git-dir, --work-tree: the repository git reads (and whose configuration it obeys) */
  dirs?: Word[]
  /** the -C options alone: where git starts, what relative paths it is given are taken from */
  chdirs?: Word[]
  /** the last --work-tree: the folder checkout, restore, stash, reset... write the tracked files into */
  workTree?: Word
  /** --git-dir naming a directory that is not a `.git`: its config is not a protected path, so a
   *  workspace write could have planted core.pager/core.fsmonitor there for this git to run */
  bareDir?: string
  /** `--bare`: git uses the folder it runs in (after -C) as its git directory, and its plain `config`
   *  file, workspace content that no rule protects, as the repository's configuration */
  bare?: true
}

const VALUED = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--list-cmds", "--attr-source"])

// config keys whose value is a program or pulls in other config: setting them runs code
const PROGRAM_KEY = /^(core\.(pager|sshcommand|fsmonitor|editor|hookspath|askpass|gitproxy|worktree)|alias\..+|diff\.external|(diff|merge|filter)\..+\.(textconv|command|driver|clean|smudge|process)|filter\..+|gpg(\..+)?\.program|credential(\..+)?\.helper|sequence\.editor|uploadpack\.packobjectshook|remote\..+\.(uploadpack|receivepack|proxy|vcs)|include(if\..+)?\.path|init\.templatedir|protocol\..+\.allow|(http|https)(\..+)?\.proxy|.+\.(cmd|command|program|helper|tool|hook)|pager\..+|ssh\.variant|instaweb\..+|web\.browser|browser\..+\.(cmd|path)|man\..+\.(cmd|path)|difftool\..+|mergetool\..+)$/i

export function isProgramKey(key: string): boolean {
  return PROGRAM_KEY.test(key)
}

export function readGit(words: Word[]): GitView {
  const view: GitView = { sub: words.length, findings: [], programs: [] }
  let i = 1
  for (; i < words.length; i++) {
    const v = words[i]!.value
    if (v === undefined) {
      view.unresolved = "a git option is not static"
      return view
    }
    if (!v.startsWith("-")) break
    if (v === "--bare") view.bare = true
    const eq = v.indexOf("=")
    const name = v.startsWith("--") && eq > 0 ? v.slice(0, eq) : v
    let value: string | undefined
    if (VALUED.has(name)) {
      value = eq > 0 && v.startsWith("--") ? v.slice(eq + 1) : v.length > 2 && !v.startsWith("--") ? v.slice(2) : words[++i]?.value
    } else if (/^-c./.test(v)) value = v.slice(2)
    else if (/^-C./.test(v)) value = v.slice(2)
    if (name === "--git-dir" && !/(^|\/)\.git\/?$/i.test(value ?? "")) view.bareDir = value ?? words[i]!.text
    if (name === "-C" || name === "--git-dir" || name === "--work-tree") {
      const dir = value === undefined ? { ...words[i]!, value: undefined } : { ...words[i]!, text: value, value, tilde: words[i]!.value === value && words[i]!.tilde }
      view.dirs = [...(view.dirs ?? []), dir]
      if (name === "-C") view.chdirs = [...(view.chdirs ?? []), dir]
      if (name === "--work-tree") view.workTree = dir
    }
    if (name === "-c" || v.startsWith("-c")) config(view, value, "-c")
    else if (name === "--config-env") config(view, value, "--config-env")
    else if (name === "--exec-path" && eq > 0) {
      view.findings.push({ name: "git-exec-path", level: "critical", reason: "git --exec-path runs git commands from another directory" })
    }
  }
  view.sub = i
  subcommand(view, words)
  return view
}

function config(view: GitView, setting: string | undefined, how: string): void {
  if (setting === undefined) {
    view.unresolved = `git ${how} value is not static`
    return
  }
  const eq = setting.indexOf("=")
  const key = eq < 0 ? setting : setting.slice(0, eq)
  view.findings.push({ name: "git-config-option", level: "high", reason: `git ${how} ${key} changes git's configuration for this command` })
  if (!isProgramKey(key)) return
  view.findings.push({ name: "git-config-program", level: "critical", reason: `git ${how} ${key} makes git run a program` })
  const value = eq < 0 ? "" : setting.slice(eq + 1)
  if (how === "-c" && value) view.programs.push(value.startsWith("!") ? value.slice(1) : value)
}

const PACK_NAMES = ["upload-pack", "receive-pack", "exec"]

// git's parse-options takes any unique prefix (`--upload` = `--upload-pack`): a prefix of one of these
// counts as it (where it is ambiguous git refuses the command, so counting it costs nothing)
function packOption(v: string): [string, string, string] | null {
  // u(pload-pack), r(eceive-pack), e(xec): anything else is not one of them (this runs for every git argument)
  const c = v.charCodeAt(2)
  if (c !== 117 && c !== 114 && c !== 101) return null
  if (!v.startsWith("--") || v.length < 3) return null
  const eq = v.indexOf("=")
  const given = v.slice(2, eq < 0 ? undefined : eq)
  const name = PACK_NAMES.find((n) => n.startsWith(given))
  return name ? [v, name, eq < 0 ? "" : "="] : null
}

function subcommand(view: GitView, words: Word[]): void {
  const sub = words[view.sub]?.value
  const args = words.slice(view.sub + 1)
  for (let j = 0; j < args.length; j++) {
    const v = args[j]!.value ?? ""
    const pack = packOption(v) ?? (sub === "clone" && /^-[a-zA-Z]*u/.test(v) && !v.startsWith("--") ? ["-u", "upload-pack", v.endsWith("u") ? "" : "attached"] : null)
    if (pack) {
      const value = pack[2] === "=" ? v.slice(v.indexOf("=") + 1) : pack[2] === "attached" ? v.slice(v.indexOf("u") + 1) : args[++j]?.value
      view.findings.push({ name: "git-remote-program", level: "critical", reason: `git ${sub} --${pack[1]} runs a program` })
      if (value) view.programs.push(value)
      else view.unresolved = `git --${pack[1]} value is not static`
    }
  }
  // `git init/clone --template=DIR` copies DIR's hooks into the new repository's .git/hooks, where the
  // next `git commit` there runs them: a write to a protected path by another name (any unique prefix:
  // --te, --temp)
  if (sub === "init" || sub === "clone") {
    for (const a of args) {
      const v = a.value ?? ""
      const given = v.startsWith("--") ? v.slice(2, v.includes("=") ? v.indexOf("=") : undefined) : ""
      if (given.length >= 2 && "template".startsWith(given)) {
        view.findings.push({ name: "git-template", level: "critical", reason: `git ${sub} ${v.split("=")[0]} installs hooks from a template into the new repository's .git/hooks: git runs them later` })
      }
    }
  }
  // `git clone -c core.sshCommand=.. URL` sets configuration the clone itself uses
  if (sub === "clone") {
    for (let j = 0; j < args.length; j++) {
      const v = args[j]!.value ?? ""
      const eq = v.indexOf("=")
      const given = v.startsWith("--") ? v.slice(2, eq < 0 ? undefined : eq) : ""
      if (given.length >= 2 && "config".startsWith(given)) config(view, eq < 0 ? args[++j]?.value : v.slice(eq + 1), "clone --config")
      else if (v === "-c") config(view, args[++j]?.value, "clone -c")
      else if (/^-c./.test(v)) config(view, v.slice(2), "clone -c")
    }
  }
  if (sub === "rebase") {
    for (let j = 0; j < args.length; j++) {
      const v = args[j]!.value ?? ""
      // parse-options: `--exe` is --exec; in a bundle the first letter that takes a value (-s -X -C -x)
      // takes the rest or the next word (`-fx CMD`, `-ixCMD`)
      const long = /^--([a-z-]+)(=?)/.exec(v)
      if (long) {
        if (long[1]!.length >= 2 && "exec".startsWith(long[1]!)) take(view, long[2] ? { ...args[j]!, value: v.slice(long[0].length) } : args[++j], "git rebase --exec")
        continue
      }
      const bundle = /^-([a-zA-WYZ]*?)([sXCx])(.*)$/.exec(v)
      if (bundle?.[2] === "x") take(view, bundle[3] ? { ...args[j]!, value: bundle[3] } : args[++j], "git rebase --exec")
      else if (bundle && !bundle[3]) j++
    }
  }
  if (sub === "submodule" && args.some((a) => a.value === "foreach")) {
    const at = args.findIndex((a) => a.value === "foreach")
    const rest = args.slice(at + 1).filter((a) => a.value !== "--recursive" && a.value !== "-q" && a.value !== "--quiet")
    if (rest.some((a) => a.value === undefined)) view.unresolved = "git submodule foreach command is not static"
    else if (rest.length) view.programs.push(rest.map((a) => a.value).join(" "))
  }
  if (sub === "bisect" && args[0]?.value === "run" && args.length > 1) view.argv = args.slice(1)
  if ((sub === "grep" || sub === "difftool" || sub === "mergetool") && args.some((a) => toolOption(a.value ?? ""))) {
    view.findings.push({ name: "git-tool-program", level: "high", reason: `git ${sub} runs a program named on its command line` })
  }
}

// `-O`/`--open-files-in-pager`, `-x`/`--extcmd`, `-t`/`--tool`: any unique prefix (`--ext=`), in a bundle (`-yx`)
function toolOption(v: string): boolean {
  if (v.startsWith("--")) {
    const given = v.slice(2).replace(/=.*$/, "")
    return given.length > 0 && ["open-files-in-pager", "extcmd", "tool"].some((n) => n.startsWith(given))
  }
  // the first letter that takes a value ends the bundle: `-ext` is `-e xt`
  return /^-[a-zA-Z]*?[efABCmOxt]/.exec(v)?.[0].match(/[Oxt]$/) != null
}

function take(view: GitView, word: Word | undefined, what: string): void {
  if (word?.value === undefined) view.unresolved = `${what} command is not static`
  else view.programs.push(word.value)
}
