// Words as bash sees them after quote removal, with what could and could not be known statically.
// Pure: values come from the script's own assignments and the environment the caller passes in.
import { expandMarked, markBraces } from "./braces.ts"
import type { SNode } from "./parser.ts"

export interface Word {
  /** unquoted text with expansions kept as written (`$HOME/x`): what rules and people see */
  text: string
  /** the value bash would pass, when it is known statically */
  value: string | undefined
  /** built (partly) from an expansion: $X, ${X}, $(..), `..`, $((..)) */
  expanded: boolean
  /** an expansion in it is unset, empty or unknown (`rm -rf "$DIR/"` deletes / when DIR is unset) */
  hollow: boolean
  /** unquoted glob characters: the shell replaces the word with matching file names */
  glob: boolean
  /** starts with an unquoted `~` (the home directory) */
  tilde: boolean
  /** holds a process substitution: a /dev/fd path whose content a command produces */
  procsub?: boolean
  /** filled in at run time by xargs -I / find -exec `{}` */
  placeholder?: boolean
  /** one of several words a brace expansion made */
  braced?: boolean
}

/** Whether bash brace-expands words here: on (the default), off (`set +B`), or not known (`set $X`). */
export type BraceMode = boolean | "unknown"

/** The value of `$name`: a string, "" when unset, undefined when it cannot be known. */
export type Lookup = (name: string) => string | undefined

interface Piece {
  written: string
  value: string | undefined
  quoted: boolean
  expansion: boolean
  procsub?: boolean
}

export function literalWord(text: string, quoted = true): Word {
  return { text, value: text, expanded: false, hollow: false, glob: !quoted && hasGlob(text), tilde: !quoted && text.startsWith("~") }
}

export function dynamicWord(text: string): Word {
  return { text, value: undefined, expanded: true, hollow: true, glob: false, tilde: false }
}

/** Evaluate adjacent syntax nodes that bash reads as one word (field splitting may make it several).
 *  `assignment`: the value of `NAME=value`, where bash also expands `~` after each unquoted `:`.
 *  `"argument"`: a command's argument or a redirect's target, where bash (outside posix mode) does the
 *  same after the `=` of a word that looks like an assignment (`cat x=~/.netrc` reads `x=$HOME/.netrc`).
 *  `braces`: whether brace expansion is on; by default off for an assignment's value (`x={a,b}` holds {a,b}). */
export function evalWord(nodes: SNode[], src: string, lookup: Lookup, assignment: boolean | "argument" = false, braces: BraceMode = assignment !== true): Word[] {
  if (nodes.length === 1 && nodes[0]!.type === "word") {
    // the common case: a bare word with nothing to unquote or expand
    const raw = src.slice(nodes[0]!.start, nodes[0]!.end)
    const tildes = assignment === true || (assignment === "argument" && ASSIGNMENT_HEAD.test(raw))
    if (!raw.includes("\\") && !raw.includes("{") && !(tildes && raw.includes("~"))) return [literalWord(raw, false)]
  }
  const pieces: Piece[] = []
  let at = nodes[0]?.start ?? 0
  for (const node of nodes) {
    gap(src.slice(at, node.start), pieces)
    addNode(node, src, lookup, pieces, false)
    at = node.end
  }
  if (assignment === true) assignmentTildes(pieces, lookup)
  else if (assignment === "argument") argumentTildes(pieces, lookup)
  return finish(pieces, braces)
}

// `NAME=` or `NAME+=` at the start of a word, unquoted
const ASSIGNMENT_HEAD = /^[A-Za-z_][A-Za-z0-9_]*\+?=/

/** `x=~/a`, `x=a:~/b` as an argument: the tildes of the part after the `=`, as in an assignment. */
function argumentTildes(pieces: Piece[], lookup: Lookup): void {
  const head = pieces[0]
  if (!head || head.quoted || head.expansion || head.value === undefined || head.written !== head.value) return
  const name = ASSIGNMENT_HEAD.exec(head.value)?.[0]
  if (!name) return
  const rest = head.value.slice(name.length)
  const value: Piece[] = [{ written: rest, value: rest, quoted: false, expansion: false }, ...pieces.slice(1)]
  assignmentTildes(value, lookup)
  pieces.splice(0, pieces.length, { written: name, value: name, quoted: false, expansion: false }, ...value)
}

/**
 * Bash expands a tilde prefix in an assignment's value at its start and after each unquoted `:`
 * (`f=~/.aws/credentials`, `PATH=~/bin:~/x`): the variable holds the expanded path. A prefix bash would
 * take from the directory stack or the current/previous directory (`~+`, `~-`, `~1`) is not known here:
 * the value is then unknown, never the literal text.
 */
function assignmentTildes(pieces: Piece[], lookup: Lookup): void {
  let boundary = true
  for (let k = 0; k < pieces.length; k++) {
    const p = pieces[k]!
    if (p.quoted || p.expansion || p.value === undefined) {
      boundary = false
      continue
    }
    const v = p.value
    if (!v.includes("~")) {
      boundary = v.endsWith(":") || (boundary && !v)
      continue
    }
    let out = ""
    for (let i = 0; i < v.length; i++) {
      if (boundary && v[i] === "~") {
        const end = (/[/:]/.exec(v.slice(i))?.index ?? v.length - i) + i
        // a prefix running into a quoted or expanded piece is not expanded (`~"/x"` stays)
        if (end < v.length || k === pieces.length - 1) {
          const base = tildeValue(v.slice(i + 1, end), lookup)
          if (base === undefined) {
            pieces[k] = { written: p.written, value: undefined, quoted: true, expansion: true }
            return
          }
          if (base !== null) {
            out += base
            i = end - 1
            boundary = false
            continue
          }
        }
      }
      boundary = v[i] === ":"
      out += v[i]
    }
    p.value = out
  }
}

// what `~PREFIX` stands for: a path, null when bash leaves it as written, undefined when not known here
function tildeValue(prefix: string, lookup: Lookup): string | null | undefined {
  const home = lookup("HOME")
  if (prefix === "") return home || undefined
  if (/^[+-]?\d*$/.test(prefix)) return undefined
  if (!/^[A-Za-z0-9._-]+$/.test(prefix) || !home?.startsWith("/")) return null
  if (prefix === home.slice(home.lastIndexOf("/") + 1)) return home
  return prefix === "root" ? "/root" : `${home.slice(0, home.lastIndexOf("/")) || ""}/${prefix}`
}

/** Nodes with nothing between them (or only a line continuation) are one word to bash. */
export function groupWords(src: string, nodes: SNode[]): SNode[][] {
  const groups: SNode[][] = []
  let prev: SNode | undefined
  for (const n of nodes) {
    const joined = prev && (prev.end === n.start || /^(\\\n)+$/.test(src.slice(prev.end, n.start)))
    if (joined) groups[groups.length - 1]!.push(n)
    else groups.push([n])
    prev = n
  }
  return groups
}

function addNode(node: SNode, src: string, lookup: Lookup, out: Piece[], inQuotes: boolean): void {
  const raw = src.slice(node.start, node.end)
  switch (node.type) {
    case "word":
      if (inQuotes) out.push({ written: raw, value: raw, quoted: true, expansion: false })
      else unquoteBare(raw, out)
      return
    case "raw_string":
      out.push({ written: raw.slice(1, -1), value: raw.slice(1, -1), quoted: true, expansion: false })
      return
    case "ansi_c_string": {
      const text = decodeAnsiC(raw.slice(2, -1))
      out.push({ written: text ?? raw, value: text, quoted: true, expansion: false })
      return
    }
    case "string":
      addString(node, src, lookup, out)
      return
    case "translated_string":
      for (const child of node.children) if (child.type === "string") addString(child, src, lookup, out)
      return
    case "concatenation": {
      let at = node.start
      for (const child of node.children) {
        gap(src.slice(at, child.start), out)
        addNode(child, src, lookup, out, inQuotes)
        at = child.end
      }
      return
    }
    case "simple_expansion":
    case "expansion": {
      const name = simpleName(node, src)
      const value = name === undefined ? undefined : lookup(name)
      if (name === undefined) readVariables(node, src, lookup)
      out.push({ written: raw, value, quoted: inQuotes, expansion: true })
      return
    }
    case "command_substitution":
    case "arithmetic_expansion":
      out.push({ written: raw, value: undefined, quoted: inQuotes, expansion: true })
      return
    case "process_substitution":
      out.push({ written: raw, value: undefined, quoted: true, expansion: true, procsub: true })
      return
    case "array":
      readVariables(node, src, lookup)
      out.push({ written: raw, value: undefined, quoted: true, expansion: true })
      return
    case "$":
      // tree-sitter-bash sometimes ends a word at a lone "$" after a glob bracket (`/[r]oo$X`), leaving
      // the name as the next word; bash expands it. A "$" that bash would expand is a value not known here
      if (/^[A-Za-z0-9_{(@*#?$!'"-]/.test(src.slice(node.end, node.end + 1))) {
        out.push({ written: raw, value: undefined, quoted: inQuotes, expansion: true })
        return
      }
      if (inQuotes) out.push({ written: raw, value: raw, quoted: true, expansion: false })
      else unquoteBare(raw, out)
      return
    default:
      // number, brace_expression, extglob_pattern, ... : their source text is what bash sees
      if (inQuotes) out.push({ written: raw, value: raw, quoted: true, expansion: false })
      else unquoteBare(raw, out)
  }
}

/** Inside "...": \ escapes only $ ` " \ and newline; expansions are not split or globbed. */
function addString(node: SNode, src: string, lookup: Lookup, out: Piece[]): void {
  const open = src[node.start] === "$" ? node.start + 2 : node.start + 1
  let at = open
  const end = node.end - 1
  for (const child of node.children) {
    if (!child.named) continue
    if (child.start > at) addQuotedText(src.slice(at, child.start), out)
    if (child.type === "string_content") addQuotedText(src.slice(child.start, child.end), out)
    else addNode(child, src, lookup, out, true)
    at = child.end
  }
  if (end > at) addQuotedText(src.slice(at, end), out)
  if (!out.length) out.push({ written: "", value: "", quoted: true, expansion: false })
}

function addQuotedText(raw: string, out: Piece[]): void {
  const text = raw.includes("\\") ? raw.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === "\n" ? "" : c)) : raw
  out.push({ written: text, value: text, quoted: true, expansion: false })
}

/** An unquoted stretch: backslash quotes the next character, backslash-newline vanishes. */
function unquoteBare(raw: string, out: Piece[]): void {
  if (!raw.includes("\\")) {
    out.push({ written: raw, value: raw, quoted: false, expansion: false })
    return
  }
  let plain = ""
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!
    if (c !== "\\") {
      plain += c
      continue
    }
    const next = raw[++i]
    if (next === undefined || next === "\n") continue
    if (plain) out.push({ written: plain, value: plain, quoted: false, expansion: false })
    plain = ""
    out.push({ written: next, value: next, quoted: true, expansion: false })
  }
  if (plain) out.push({ written: plain, value: plain, quoted: false, expansion: false })
}

// Text between nodes of one word: only line continuations belong there; anything else is kept verbatim.
function gap(text: string, out: Piece[]): void {
  if (!text) return
  const rest = text.replace(/\\\n/g, "")
  if (rest) unquoteBare(rest, out)
}

/** The variables an expansion whose value is not known here still reads (`${X:-d}`, `${X[@]}`, `${!N}`
 *  and N's value, the elements of `(...)`), and those a `case` subject or a `[[ ]]` operand reads:
 *  looked up for what the lookup records (a secret one read). Command substitutions are walked as
 *  commands of their own. */
export function readVariables(node: SNode, src: string, lookup: Lookup): void {
  if (node.type === "command_substitution" || node.type === "process_substitution") return
  if (node.type === "simple_expansion" || node.type === "expansion") {
    const sub = node.children.find((c) => c.type === "subscript")
    const v = (sub ?? node).children.find((c) => c.type === "variable_name")
    const value = v ? lookup(src.slice(v.start, v.end)) : undefined
    // `${!N}` expands the variable N names
    if (value && node.children.some((c) => c.type === "!") && /^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) lookup(value)
  }
  for (const c of node.children) readVariables(c, src, lookup)
}

function simpleName(node: SNode, src: string): string | undefined {
  const named = node.children.filter((c) => c.named)
  if (named.length !== 1) return undefined
  const only = named[0]!
  if (only.type !== "variable_name") return undefined
  if (node.type === "expansion" && node.children.some((c) => !c.named && c.type !== "${" && c.type !== "}")) return undefined
  const name = src.slice(only.start, only.end)
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : undefined
}

function finish(pieces: Piece[], braces: BraceMode): Word[] {
  let text = ""
  let value: string | undefined = ""
  let expanded = false
  let hollow = false
  let glob = false
  let procsub = false
  let split = false
  let brace = false
  for (const p of pieces) {
    text += p.written
    if (value !== undefined) value = p.value === undefined ? undefined : value + p.value
    if (p.expansion) {
      expanded = true
      if (!p.value) hollow = true
      if (!p.quoted && p.value === undefined) glob = true
      // an unquoted expansion's value is globbed too (f=/etc/sh*; cat $f reads /etc/shadow)
      else if (!p.quoted && p.value !== undefined && hasGlob(p.value)) glob = true
      if (!p.quoted && p.value !== undefined && /[ \t\n]/.test(p.value)) split = true
    } else if (!p.quoted) {
      if (hasGlob(p.value!)) glob = true
      if (p.value!.includes("{")) brace = true
    }
    if (p.procsub) procsub = true
  }
  const first = pieces[0]
  const word: Word = { text, value, expanded, hollow, glob, tilde: !!first && !first.quoted && !first.expansion && first.value?.startsWith("~") === true }
  if (procsub) word.procsub = true
  if (split && value !== undefined) return splitFields(pieces, word)
  if (brace && value !== undefined && braces !== false) return expandBraces(pieces, word, braces === "unknown")
  return [word]
}

// Unquoted expansions with known values split on whitespace: X="-rf /"; rm $X is rm -rf /.
function splitFields(pieces: Piece[], base: Word): Word[] {
  const fields: string[] = [""]
  for (const p of pieces) {
    if (!p.expansion || p.quoted) {
      fields[fields.length - 1] += p.value ?? ""
      continue
    }
    const parts = p.value!.split(/[ \t\n]+/)
    fields[fields.length - 1] += parts[0]!
    for (const part of parts.slice(1)) fields.push(part)
  }
  return fields.filter((f) => f !== "").map((f) => ({ ...base, text: f, value: f, glob: base.glob || hasGlob(f) }))
}

// {a,b}, {1..3} and {a..e..2} outside quotes become several words (or one other word: {c..c} is c).
function expandBraces(pieces: Piece[], base: Word, unsure: boolean): Word[] {
  let marked = ""
  for (const p of pieces) marked += p.quoted || p.expansion ? p.value! : markBraces(p.value!)
  const results = expandMarked(marked)
  // more words than are followed: none of them is known (a truncated list would leave some unjudged)
  if (!results) return [{ ...base, value: undefined, expanded: true, hollow: true }]
  // one word may still differ from the text (`{c..c}` is c)
  if (results.length === 1 && results[0] === base.value) return [base]
  // brace expansion may be on or off here: the word is either, so not known
  if (unsure) return [{ ...base, value: undefined, expanded: true, hollow: true }]
  return results.map((r) => ({ ...base, text: r, value: r, glob: base.glob && hasGlob(r), tilde: r.startsWith("~"), braced: true }))
}

export function hasGlob(s: string): boolean {
  return s.includes("*") || s.includes("?") || s.includes("[")
}

/** $'...' escapes, as bash decodes them. A NUL (`\0`, `\x00`, `\x{}`, `\u0000`, `\c@`) ends the string:
 *  bash passes arguments as C strings, so `$'/x/.netrc\0junk'` is /x/.netrc. Undefined for a code point
 *  past Unicode (`\U110000`: bash writes bytes no string here holds). */
export function decodeAnsiC(s: string): string | undefined {
  let beyond = false
  const text = s.replace(/\\(x\{[0-9A-Fa-f]*\}?|x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|[0-7]{1,3}|c\\\\|c.|.)/gs, (_, e: string) => {
    const k = e[0]!
    // bash 5.2's `\x{HH..}` takes every hex digit up to an optional `}`, keeping the low byte (the last two)
    if (e.startsWith("x{")) return String.fromCharCode(parseInt(e.slice(2).replace("}", "").slice(-2) || "0", 16))
    // `\x`, `\u`, `\U` with no hex digit after them stay as written
    if ((k === "x" || k === "u" || k === "U") && e.length > 1) {
      const code = parseInt(e.slice(1), 16)
      if (code > 0x10ffff) beyond = true
      return code > 0x10ffff ? "" : String.fromCodePoint(code)
    }
    if (k >= "0" && k <= "7") return String.fromCharCode(parseInt(e, 8))
    // `\cX` is control-X (`\c?` DEL; `\c\\` takes both backslashes)
    if (k === "c" && e.length > 1) return e[1] === "?" ? "\x7f" : String.fromCharCode(e[1]!.toUpperCase().charCodeAt(0) & 31)
    return Object.hasOwn(ANSI_C, k) ? ANSI_C[k]! : `\\${e}`
  })
  if (beyond) return undefined
  const nul = text.indexOf("\0")
  return nul < 0 ? text : text.slice(0, nul)
}

const ANSI_C: Record<string, string> = {
  n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", v: "\v", "\\": "\\", "'": "'", '"': '"', "?": "?",
}
