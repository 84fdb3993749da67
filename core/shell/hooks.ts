// Builtins that make bash run code later or from elsewhere: `hash -p` (a name runs another file),
// `enable -f` (loads a shared object), `complete`/`compgen -C/-F` and `mapfile -C` (call back a
// command), `trap` (a handler run later), `jobs -x` (runs a command), `source` of a script outside the
// workspace. Each is modelled as what it runs. Pure.
import { lazyOptions, readOptions } from "./getopt.ts"
import { literalWord, type Word } from "./word.ts"
import { isInside } from "../base/paths.ts"
import { resolveWord } from "./cwd.ts"
import type { Expander, Part } from "./part.ts"
import { environment } from "./part.ts"
import { runsOperands } from "./appended.ts"
import { SHELLS } from "./shells.ts"

const HASH = lazyOptions({ short: "rdtlp:" })
const ENABLE = lazyOptions({ short: "adnpsf:" })

/** hash -p PATH NAME: from now on NAME runs PATH, whatever rules think NAME is. */
export function hash(part: Part, ex: Expander): void {
  ex.out.push(part)
  const r = readOptions(part.words.slice(1), HASH())
  const path = r.valued.find((o) => o.name === "p")
  if (path) part.findings.push({ name: "hash-program", level: "high", reason: `hash -p makes ${r.operands.map((w) => w.text).join(" ") || "a name"} run ${path.value?.text ?? "a program"}` })
}

/** enable -f FILE NAME loads a builtin from a shared object: it runs that file's code. */
export function enable(part: Part, ex: Expander): void {
  ex.out.push(part)
  const r = readOptions(part.words.slice(1), ENABLE())
  const file = r.valued.find((o) => o.name === "f")
  if (file) part.findings.push({ name: "load-code", level: "high", reason: `enable -f loads and runs the code of ${file.value?.text ?? "a shared object"}` })
}

const CALLBACKS = {
  complete: lazyOptions({ short: "abcdefgjksuvDEIpro:A:G:W:F:C:P:S:X:" }),
  compgen: lazyOptions({ short: "abcdefgjksuvo:A:G:W:F:C:P:S:X:V:" }),
  mapfile: lazyOptions({ short: "d:n:O:s:tu:C:c:" }),
}

/**
 * complete/compgen -C CMD, -F FUNC and mapfile -C CMD run CMD (or FUNC) with data appended: mapfile the
 * index and each line it reads, compgen the word being completed. The words of CMD are checked as a
 * command; what it then does with data the check never sees is not known (high), and a program that runs
 * its operands (`mapfile -C eval` evaluates each line) or a shell (reading the rest of stdin) runs the
 * data as code: unresolvable.
 */
export function callbacks(part: Part, ex: Expander): void {
  ex.out.push(part)
  const spec = part.program === "readarray" ? CALLBACKS.mapfile : CALLBACKS[part.program as keyof typeof CALLBACKS]
  for (const o of readOptions(part.words.slice(1), spec()).valued) {
    if (o.name === "W") wordList(part, o.value, ex)
    if (o.name !== "C" && o.name !== "F") continue
    const callback = o.value?.value
    if (callback === undefined || o.value?.hollow || !callback.trim()) {
      part.unresolved = `${part.program} -${o.name} names a command that is not static`
      continue
    }
    const before = ex.out.length
    ex.out.push(...ex.nested(literalWord(callback), { context: [...part.context, "eval"], cwd: part.cwd, loader: part.loader, exported: environment(part) }))
    const runner = ex.out.slice(before).find((p) => runsOperands(p.program) || SHELLS.has(p.program))
    if (runner) part.unresolved = `${part.program} -${o.name} ${callback} runs ${runner.program} with the data it reads appended: the data runs as a command`
    else part.findings.push({ name: "runs-commands", level: "high", reason: `${part.program} -${o.name} runs ${callback} with data appended to its arguments (the lines read, the word completed), which are not checked` })
  }
}

/**
 * complete/compgen -W LIST: bash splits LIST at IFS and expands every word again when it completes
 * (compgen at once), quotes or not: `$(…)`, backquotes, `${…}` and `<(…)` in it run. A list holding any
 * is checked as the arguments of a command of its own (`;` or `|` in it are plain text to bash, so
 * this reads more than bash runs, never less); a list not known here could hold them.
 */
function wordList(part: Part, list: Word | undefined, ex: Expander): void {
  const text = list?.value
  if (text === undefined) {
    part.unresolved = `${part.program} -W expands the words of its list again, and the list is not static: any $(…) in it would run`
    return
  }
  if (!/[$`]|[<>]\(/.test(text)) return
  ex.out.push(...ex.nested(literalWord(`: ${text}`), { context: [...part.context, "eval"], cwd: part.cwd, loader: part.loader, exported: environment(part) }))
}

/** source FILE runs FILE in this shell: a script from outside the workspace is code nobody here reviewed. */
export function sourced(part: Part, file: string, workspace: string | undefined, home: string): void {
  const paths = resolveWord(literalWord(file, false), part.cwd, home)
  const outside = workspace !== undefined && (paths === null || paths.some((p) => !isInside(workspace, p)))
  part.findings.push(outside
    ? { name: "shell-script", level: "high", reason: `sources ${file}, a script from outside the workspace` }
    : { name: "shell-script", level: "medium", reason: `runs the script ${file}` })
}

/** trap ACTION SIGNAL...: the action runs later, whenever the signal comes. */
export function trap(part: Part, ex: Expander): void {
  ex.out.push(part)
  // `trap -- ACTION SIGNAL`: the action follows the end of options
  const words = part.words[1]?.value === "--" ? part.words.slice(1) : part.words
  const action = words[1]
  if (!action || words.length < 3 || /^-[lpP]$/.test(action.value ?? "") || action.value === "-") return
  if (action.value === undefined || action.hollow) {
    part.unresolved = "the trap command is not static"
    return
  }
  // the handler runs later, with the values variables have then (not known here); set inside an eval,
  // in a directory not known here either (the walk gave a trap of its own script every later one)
  const cwd = part.context.includes("eval") ? null : part.cwd
  const exported = part.exported && new Map([...part.exported.keys()].map((name) => [name, undefined]))
  ex.out.push(...ex.nested(literalWord(action.value), { context: [...part.context, "eval"], cwd, loader: part.loader, exported, late: true }))
}

/** `jobs -x COMMAND ARGS` runs COMMAND (with job specs in ARGS replaced by process group ids). */
export function jobsExec(part: Part, ex: Expander, unwrap: (part: Part, ex: Expander) => void): void {
  let i = 1
  let runs = false
  for (; i < part.words.length; i++) {
    const v = part.words[i]!.value
    if (v === undefined || part.words[i]!.hollow) {
      ex.out.push(part)
      part.unresolved = "jobs is given an option that is not static (-x runs a command)"
      return
    }
    if (v === "--") {
      i++
      break
    }
    if (!v.startsWith("-") || v === "-") break
    if (v.includes("x")) runs = true
  }
  if (!runs || i >= part.words.length) {
    ex.out.push(part)
    return
  }
  part.wrappers = [...part.wrappers, "jobs"]
  part.words = part.words.slice(i)
  unwrap(part, ex)
}
