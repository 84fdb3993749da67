// `cmake -E COMMAND`: cmake's command mode is not a build but a portable coreutils (copy, rename, rm,
// make_directory, tar, ...) and a runner (env, chdir, time run the command after them). Each command is
// judged as the coreutils command that does the same (`cmake -E copy_directory hooks .git/hooks` as
// `cp -r hooks .git/hooks`, `cmake -E chdir D CMD` as `env -C D CMD`), so the path and program checks of
// those apply. Pure.
import { literalWord, type Word } from "./word.ts"
import type { Part } from "./part.ts"

// command -> the coreutils words it is judged as (its own arguments follow them)
const SAME: Record<string, string[]> = {
  cat: ["cat"], echo: ["echo"], echo_append: ["echo"], capabilities: ["true"], true: ["true"], false: ["false"], sleep: ["sleep"],
  md5sum: ["md5sum"], sha1sum: ["sha1sum"], sha224sum: ["sha224sum"], sha256sum: ["sha256sum"], sha384sum: ["sha384sum"], sha512sum: ["sha512sum"],
  environment: ["env"], copy: ["cp"], copy_if_different: ["cp"], copy_directory: ["cp", "-r"], copy_directory_if_different: ["cp", "-r"],
  rename: ["mv"], make_directory: ["mkdir", "-p"], remove_directory: ["rm", "-rf"], rm: ["rm"], touch: ["touch"], touch_nocreate: ["touch", "-c"],
  create_symlink: ["ln", "-s"], create_hardlink: ["ln"], tar: ["tar"], chdir: ["env", "-C"], time: [], help: ["true"],
}

/** Rewrites `cmake -E COMMAND ARGS` in place as what it does; false (with a finding) when that is not known. */
export function cmakeCommand(part: Part): boolean {
  const cmd = part.words[2]
  const name = cmd?.value
  if (cmd === undefined || name === undefined || cmd.expanded || cmd.placeholder || name.startsWith("-")) {
    part.findings.push({ name: "unknown-option", level: "high", reason: `cmake -E ${cmd?.text ?? ""}: a command-mode command not known before it runs (cmake -E copies, deletes and runs commands)` })
    return false
  }
  let args = part.words.slice(3)
  let head: string[] | undefined = SAME[name]
  if (name === "env") head = ["env"], args = cmakeEnv(args)
  else if (name === "compare_files") head = ["cmp"], args = args.filter((w) => w.value !== "--ignore-eol")
  else if (name === "remove") head = ["rm", "-f"], args = args.filter((w) => w.value !== "-f")
  if (head === undefined) {
    part.findings.push({ name: "unknown-option", level: "high", reason: `cmake -E ${name} is a command-mode command ccode does not know (cmake -E copies, deletes and runs commands)` })
    return false
  }
  part.wrappers = [...part.wrappers, `cmake -E ${name}`]
  part.words = [...head.map((h) => literalWord(h)), ...args]
  return part.words.length > 0
}

// cmake -E env [--unset=NAME]... [--modify NAME=OP:VALUE]... [--] [NAME=VALUE]... COMMAND: as env's own
// words (-u NAME, NAME=VALUE); a --modify sets the variable like an assignment
function cmakeEnv(args: Word[]): Word[] {
  const out: Word[] = []
  let i = 0
  for (; i < args.length; i++) {
    const a = args[i]!.value
    if (a === undefined) break
    if (a.startsWith("--unset=")) out.push(literalWord("-u"), literalWord(a.slice(8)))
    else if (a === "--modify" || a.startsWith("--modify=")) {
      const spec = a === "--modify" ? args[++i] : { ...args[i]!, value: a.slice(9), text: a.slice(9) }
      const m = spec?.value === undefined ? undefined : /^([A-Za-z_][A-Za-z0-9_]*)=[a-z_]+:(.*)$/s.exec(spec.value)
      out.push(m ? literalWord(`${m[1]}=${m[2]}`) : { ...(spec ?? args[i]!), value: undefined, expanded: true, hollow: true })
    } else if (a === "--") {
      i++
      break
    } else break
  }
  return [...out, ...args.slice(i)]
}
