// Builtins that make bash run code later or from elsewhere: `hash -p` (a name runs another file),
// `enable -f` (loads a shared object), `complete`/`compgen -C/-F` and `mapfile -C` (call back a
// command), `source` of a script outside the workspace. Each is modelled as what it runs. Pure.
import { lazyOptions, readOptions } from "./getopt.ts"
import { literalWord } from "./word.ts"
import { isInside } from "../base/paths.ts"
import { resolveWord } from "./cwd.ts"
import type { Expander, Part } from "./part.ts"

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
  compgen: lazyOptions({ short: "abcdefgjksuvo:A:G:W:F:C:P:S:X:" }),
  mapfile: lazyOptions({ short: "d:n:O:s:tu:C:c:" }),
}

/** complete/compgen -C CMD, -F FUNC and mapfile -C CMD run CMD (or FUNC) as a command of their own. */
export function callbacks(part: Part, ex: Expander): void {
  ex.out.push(part)
  const spec = part.program === "readarray" ? CALLBACKS.mapfile : CALLBACKS[part.program as keyof typeof CALLBACKS]
  for (const o of readOptions(part.words.slice(1), spec()).valued) {
    if (o.name !== "C" && o.name !== "F") continue
    if (o.value?.value === undefined) {
      part.unresolved = `${part.program} -${o.name} names a command that is not static`
      continue
    }
    part.findings.push({ name: "runs-commands", level: "low", reason: `${part.program} -${o.name} runs the command checked beside it` })
    ex.out.push(...ex.nested(literalWord(o.value.value), { context: [...part.context, "eval"], cwd: part.cwd, loader: part.loader, exported: part.exported }))
  }
}

/** source FILE runs FILE in this shell: a script from outside the workspace is code nobody here reviewed. */
export function sourced(part: Part, file: string, workspace: string | undefined, home: string): void {
  const paths = resolveWord(literalWord(file, false), part.cwd, home)
  const outside = workspace !== undefined && (paths === null || paths.some((p) => !isInside(workspace, p)))
  part.findings.push(outside
    ? { name: "shell-script", level: "high", reason: `sources ${file}, a script from outside the workspace` }
    : { name: "shell-script", level: "medium", reason: `runs the script ${file}` })
}
