// Secrets typed into a program's stdin password option: `docker login --password-stdin <<< "pw"`,
// `echo pw | gh auth login --with-token`, a here-doc whose body is the token. The flag table
// (arguments.ts) cannot see them: the secret is not an argument. Literal values only — `$TOKEN` is
// the environment's secret, hidden by the known-value rule wherever its value shows. Pure.
import { escapeRegex, type Located, type Rule } from "./spans.ts"

export const STDIN_SECRET_ID = "stdin-secret"

/** Options that make a program read a password or token from stdin, by what must be on its command. */
const CONSUMERS: readonly RegExp[] = [
  /--password-stdin\b/, // docker, podman, nerdctl, buildah, skopeo, oras, crane, helm registry login
  /--with-token\b/, // gh auth login
  /--pass(?:word|phrase)-fd[= ]0\b/, // gpg --passphrase-fd 0
  /(?:^|[\s;|&('"])chpasswd\b/, // reads user:password lines
  /(?:^|[\s;|&('"])passwd\b.*\s--stdin\b/, // RHEL passwd --stdin
  /(?:^|[\s;|&('"])vault\s+login\b(?:.*\s)?-(?=[\s'"]|$)/, // vault login - (the token from stdin)
  /\s-pass(?:in|out)?\s+(?:stdin|fd:0)\b/, // openssl -passin stdin
]
/** Literals every consumer holds, to start the scan at (the rule's anchors). */
const CUES = ["--password-stdin", "--with-token", "--passphrase-fd", "--password-fd", "chpasswd", "--stdin", "vault", " stdin", " fd:0"]

/** A value that is one expansion and nothing else is not a literal: the shell supplies it. */
const EXPANSION = /^(?:\$\w+|\$\{[^}]*\}|\$\([^)]*\)|`[^`]*`)$/
/** Already hidden (redacting twice changes nothing more). */
const MARKERS = /^(?:\[REDACTED:[\w.-]+\])+$/
const HERE_STRING = /(?<!<)<<<[ \t]*((?:"(?:[^"\\]|\\.)*"|'[^']*'|\$\([^)]*\)|\\.|[^\s;|&<>()'"])+)/g
const QUOTED = /^(?:"((?:[^"\\]|\\.)*)"|'([^']*)')$/
const HERE_DOC = /(?<!<)<<(?!<)(-?)[ \t]*(['"]?)([A-Za-z_][\w-]*)\2/g
const FEEDER = /^(\s*)(?:echo|printf)\b((?:\s+-[neE]+)*)/
const WORDS = /"((?:[^"\\]|\\.)*)"|'([^']*)'|((?:\\.|[^\s|;&<>()'"])+)/g

export function stdinSecretRules(): Rule[] {
  return [{ id: STDIN_SECRET_ID, anchors: CUES, re: new RegExp(CUES.map(escapeRegex).join("|"), "g"), locate }]
}

function locate(m: RegExpExecArray, text: string, memo: Map<unknown, unknown>): Located[] {
  const [lineStart, lineEnd] = logicalLine(text, m.index)
  const seen = (memo.get(locate) as Set<number> | undefined) ?? new Set<number>()
  memo.set(locate, seen)
  const [from, to] = segmentAround(text, lineStart, lineEnd, m.index)
  if (seen.has(from)) return []
  seen.add(from)
  const segment = text.slice(from, to)
  if (!CONSUMERS.some((re) => re.test(segment))) return []
  const out: Located[] = []
  const hide = (start: number, value: string, literal = true) => {
    const v = value.trim()
    if (v && !MARKERS.test(v) && (!literal || !EXPANSION.test(v))) out.push([start, start + value.length, m.index])
  }
  for (const h of segment.matchAll(HERE_STRING)) {
    // one quoted string: its inside; a concatenation (`"a"b`, `$'a\x21'`): all of it
    const start = from + h.index + h[0].length - h[1]!.length
    // inside a JSON string (`<<<\"pw\"`) the string's own closing quote ends the word
    const end = h[1]!.startsWith('\\"') ? /(?<!\\)"/.exec(h[1]!)?.index : undefined
    const word = h[1]!.slice(0, end)
    const q = QUOTED.exec(word)
    const value = q ? q[1] ?? q[2] ?? "" : word
    hide(start + (q ? 1 : 0), value, !q || q[2] === undefined)
  }
  feeder(segment, from, hide)
  for (const d of segment.matchAll(HERE_DOC)) {
    hereDoc(text, lineEnd, d[3]!, d[1] === "-", d[2] !== "", hide)
    escapedHereDoc(text, from + d.index + d[0].length, lineEnd, d[3]!, d[2] !== "", hide)
  }
  return out
}

/** The line holding `at` with the lines a trailing backslash joins to it (`docker login \` / `  --password-stdin`). */
function logicalLine(text: string, at: number): [number, number] {
  let start = text.lastIndexOf("\n", at - 1) + 1
  while (start > 1 && text[start - 2] === "\\") start = text.lastIndexOf("\n", start - 2) + 1
  let end = text.indexOf("\n", at)
  while (end > 0 && text[end - 1] === "\\") end = text.indexOf("\n", end + 1)
  return [start, end < 0 ? text.length : end]
}

/** The stretch of one line holding `at` between `;`, `&&`, `||` (a pipeline: `echo x | docker login`). */
function segmentAround(text: string, start: number, end: number, at: number): [number, number] {
  let from = start
  let to = end
  let quote = ""
  for (let i = start; i < end; i++) {
    const c = text[i]!
    if (quote) {
      if (c === quote) quote = ""
      else if (c === "\\" && quote === '"') i++
      continue
    }
    if (c === "'" || c === '"') quote = c
    else if (c === "\\") i++
    else if (c === ";" || ((c === "&" || c === "|") && text[i + 1] === c)) {
      if (i < at) from = i + (c === ";" ? 1 : 2)
      else return [from, i]
      if (c !== ";") i++
    }
  }
  return [from, to]
}

/** `echo LITERAL | consumer`, `printf '%s' LITERAL | consumer`: the words before the first pipe. */
function feeder(segment: string, from: number, hide: (start: number, value: string, literal?: boolean) => void): void {
  const head = FEEDER.exec(segment)
  if (!head) return
  const pipe = segment.indexOf("|", head[0].length)
  if (pipe < 0) return
  const words = [...segment.slice(head[0].length, pipe).matchAll(WORDS)]
  const printf = /printf/.test(head[0])
  // printf's first word is its format: with a %, the values follow; without, the format is the secret
  const skip = printf && words.length > 1 && words[0]![0].includes("%") ? 1 : 0
  for (const w of words.slice(skip)) {
    const value = w[1] ?? w[2] ?? w[3] ?? ""
    const quote = w[1] !== undefined || w[2] !== undefined ? 1 : 0
    hide(from + head[0].length + w.index + quote, value, w[2] === undefined)
  }
}

/** The body lines of a here-doc that starts on the line ending at `lineEnd`, up to its delimiter. */
function hereDoc(text: string, lineEnd: number, delimiter: string, tabs: boolean, quoted: boolean, hide: (start: number, value: string, literal?: boolean) => void): void {
  let at = lineEnd + 1
  while (at > 0 && at <= text.length) {
    const nl = text.indexOf("\n", at)
    const end = nl < 0 ? text.length : nl
    const line = text.slice(at, end)
    const body = tabs ? line.replace(/^\t+/, "") : line
    if (body === delimiter) return
    hide(at + line.length - body.length, body, !quoted)
    if (nl < 0) return
    at = nl + 1
  }
}

/** A here-doc inside a JSON string (`"docker login --password-stdin r <<EOF\\nTOKEN\\nEOF"`): its lines are
 *  separated by `\n` escapes on the one line of text; the string ends at an unescaped quote. */
function escapedHereDoc(text: string, at: number, lineEnd: number, delimiter: string, quoted: boolean, hide: (start: number, value: string, literal?: boolean) => void): void {
  let nl = text.indexOf("\\n", at)
  if (nl < 0 || nl >= lineEnd || /"/.test(text.slice(at, nl).replace(/\\./g, ""))) return
  for (let start = nl + 2; start < lineEnd; start = nl + 2) {
    nl = text.indexOf("\\n", start)
    const stop = nl < 0 || nl > lineEnd ? lineEnd : nl
    let part = text.slice(start, stop)
    const close = /(?<!\\)"/.exec(part)
    if (close) part = part.slice(0, close.index)
    const body = part.replace(/^(?:\\t)+/, "")
    if (body === delimiter) return
    hide(start + part.length - body.length, body, !quoted)
    if (close || stop === lineEnd) return
  }
}

/** For a stream: the start of the line whose here-doc feeds a stdin password option and has not been
 *  closed by its delimiter yet (its body lines are secrets only because of that line), or the text's
 *  length when there is none. */
export function openHereDoc(text: string, from: number): number {
  for (let at = text.indexOf("<<", from); at !== -1; at = text.indexOf("<<", at + 3)) {
    const [lineStart, nl] = logicalLine(text, at)
    if (nl >= text.length) return text.length // the line itself is still held
    const line = text.slice(lineStart, nl)
    if (!CONSUMERS.some((re) => re.test(line))) continue
    for (const d of line.matchAll(HERE_DOC)) {
      const tabs = d[1] === "-"
      const closed = text.slice(nl + 1).split("\n").slice(0, -1).some((l) => (tabs ? l.replace(/^\t+/, "") : l) === d[3])
      if (!closed) return lineStart
    }
  }
  return text.length
}
