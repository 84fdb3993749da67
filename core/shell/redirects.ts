// Redirections of a statement: file targets (read, write, append), and the heredocs and here-strings
// that feed a command's stdin (a shell reading its script from them). Pure.
import type { SNode } from "./parser.ts"
import type { Finding, RawRedirect, Stdin } from "./raw.ts"
import { dirStack, makeLookup, type Cwd, type Scope, type ShellEnv } from "./scope.ts"
import { evalWord, literalWord, type Word } from "./word.ts"
import { dirTilde } from "./cwd.ts"
import { scriptValue } from "./walk-arith.ts"
import { braceMode } from "./setvars.ts"

export interface Source {
  src: string
  shell: ShellEnv
}

export function redirect(w: Source, r: SNode, scope: Scope, cwd: Cwd): { redirect?: RawRedirect; stdin?: Stdin } | undefined {
  const lookup = makeLookup(scope, w.shell, cwd)
  if (r.type === "herestring_redirect") {
    const parts = r.children.filter((c) => c.named && c.type !== "file_descriptor")
    // a here-string is not brace-expanded (`<<< {a,b}` is the text {a,b})
    const body = parts.length ? evalWord(parts, w.src, lookup, false, false)[0] ?? literalWord("") : literalWord("")
    return { stdin: { kind: "herestring", body } }
  }
  if (r.type === "heredoc_redirect") {
    const start = r.children.find((c) => c.type === "heredoc_start")
    const bodyNode = r.children.find((c) => c.type === "heredoc_body")
    const quoted = !!start && /['"\\]/.test(w.src.slice(start.start, start.end))
    let body: Word
    if (!bodyNode) body = literalWord("")
    else if (quoted || !bodyNode.children.some((c) => c.type !== "heredoc_content")) body = literalWord(w.src.slice(bodyNode.start, bodyNode.end))
    else body = heredocWord(w, bodyNode, scope, cwd)
    const dash = r.children.some((c) => c.type === "<<-")
    if (dash && body.value !== undefined) body = { ...body, value: body.value.replace(/^\t+/gm, ""), text: body.text.replace(/^\t+/gm, "") }
    return { stdin: { kind: "heredoc", body } }
  }
  if (r.type !== "file_redirect") return undefined
  const op = r.children.find((c) => !c.named)?.type ?? ">"
  const fdNode = r.children.find((c) => c.type === "file_descriptor")
  const fd = fdNode && /^\d+$/.test(w.src.slice(fdNode.start, fdNode.end)) ? Number(w.src.slice(fdNode.start, fdNode.end)) : undefined
  const dest = r.children.filter((c) => c.field === "destination")
  if (op === ">&-" || op === "<&-") return { redirect: { op, target: literalWord("-"), access: "write", fd, dup: "-" } }
  if (!dest.length) return undefined
  const first = evalWord(dest, w.src, lookup, "argument", braceMode(scope))[0] ?? literalWord("")
  // `~+`/`~-` are $PWD/$OLDPWD as the script set them
  const target = first.tilde ? dirTilde(first, scriptValue(scope), dirStack(scope)) : first
  // a copy or a close of a descriptor: fds.ts follows it (`2>&1`, `3<&0`, `1>&-`)
  if ((op === ">&" || op === "<&") && /^(\d+|-)$/.test(target.text)) return { redirect: { op, target, access: "write", fd, dup: target.text === "-" ? "-" : Number(target.text) } }
  const access = op === "<" ? "read" : op === ">>" || op === "&>>" ? "append" : "write"
  const redirect: RawRedirect = fd === undefined ? { op, target, access } : { op, target, access, fd }
  return op === "<" ? { redirect, stdin: { kind: "file", target } } : { redirect }
}

/** An input redirect from a file named only at run time (`< $(echo ~/.netrc)`, `< $X`, `< $OLDPWD/x`):
 *  the path rules cannot see what it reads, and the command's output can show it. */
export function unknownInput(r: RawRedirect): Finding | undefined {
  if (r.access !== "read" || r.target.procsub) return undefined
  // hollow: an unset variable here (`$OLDPWD`) may well be set in the shell that runs it
  if (r.target.value !== undefined && !r.target.placeholder && !r.target.hollow) return undefined
  return { name: "read-unknown", level: "medium", reason: `reads a file named only at run time (< ${r.target.text}): it could be a secret` }
}

function heredocWord(w: Source, body: SNode, scope: Scope, cwd: Cwd): Word {
  const lookup = makeLookup(scope, w.shell, cwd)
  let text = ""
  let value: string | undefined = ""
  let at = body.start
  for (const c of body.children) {
    if (c.type === "heredoc_content") continue
    const lit = w.src.slice(at, c.start)
    const [piece] = c.type === "simple_expansion" || c.type === "expansion" ? evalWord([c], w.src, lookup) : [undefined]
    text += lit + w.src.slice(c.start, c.end)
    value = value === undefined || piece?.value === undefined ? undefined : value + lit + piece.value
    at = c.end
  }
  const tail = w.src.slice(at, body.end)
  return { text: text + tail, value: value === undefined ? undefined : value + tail, expanded: true, hollow: value === undefined, glob: false, tilde: false }
}
