// Rule patterns split with shell quoting rules (`git commit -m "fix"` is four tokens), and the
// best-effort whitespace split used for deny matching when a command cannot be parsed. Pure.

export interface PatternToken {
  /** the token with quotes removed; inside a wild token a quoted `*` is \u0000 */
  text: string
  /** holds an unquoted `*` */
  wild: boolean
}

const cache = new Map<string, PatternToken[]>()

export function splitPattern(pattern: string): PatternToken[] {
  let tokens = cache.get(pattern)
  if (tokens) return tokens
  tokens = split(pattern)
  if (cache.size > 4096) cache.clear()
  cache.set(pattern, tokens)
  return tokens
}

function split(pattern: string): PatternToken[] {
  const out: PatternToken[] = []
  let text: string | undefined
  let wild = false
  let quote = ""
  const flush = () => {
    if (text !== undefined) out.push({ text: wild ? text : text.replace(/\u0000/g, "*"), wild })
    text = undefined
    wild = false
  }
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!
    if (quote) {
      if (c === quote) quote = ""
      else if (c === "\\" && quote === '"' && /["\\$`]/.test(pattern[i + 1] ?? "")) text += pattern[++i]!
      else text += c === "*" ? "\u0000" : c
    } else if (c === "'" || c === '"') {
      quote = c
      text ??= ""
    } else if (c === "\\" && i + 1 < pattern.length) {
      const next = pattern[++i]!
      text = (text ?? "") + (next === "*" ? "\u0000" : next)
    } else if (/\s/.test(c)) flush()
    else {
      if (c === "*") wild = true
      text = (text ?? "") + c
    }
  }
  flush()
  return out
}

// reserved words and group braces that start a piece: the command is what follows them
const SYNTAX = new Set(["{", "}", "!", "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "time", "case", "esac", "for", "function", "select", "coproc"])

/** Words of an unparseable command, split on whitespace and shell operators, quotes removed where they pair. */
export function splitBestEffort(command: string): { text: string; words: string[] }[] {
  const out: { text: string; words: string[] }[] = []
  for (const piece of command.split(/&&|\|\||[;&|\n`()]|\$\(/)) {
    const text = piece.trim()
    if (!text) continue
    const words = text.split(/\s+/).map((w) => w.replace(/^(['"])(.*)\1$/s, "$2").replace(/['"\\]/g, "")).filter((w) => w && !/^\d*[<>]/.test(w))
    while (words.length && SYNTAX.has(words[0]!)) words.shift()
    if (words.length) out.push({ text, words })
  }
  return out
}
