// The `if:` and `${{ }}` expression language: a hand-written parser and evaluator over plain data.
// Pure: no eval, no code execution, no fs, no clock. Bounded: length, nesting and tokens are capped,
// so a hostile task file cannot make the loader spin or overflow the stack.

export const MAX_EXPRESSION_LENGTH = 4096
export const MAX_NESTING = 32
const MAX_TOKENS = 512

export type Value = string | number | boolean | null

export type Expr =
  | { kind: "literal"; value: Value }
  | { kind: "ref"; path: string[]; at: number }
  | { kind: "call"; name: "success" | "failure" | "always"; at: number }
  | { kind: "not"; operand: Expr }
  | { kind: "binary"; op: BinaryOp; left: Expr; right: Expr }

type BinaryOp = "&&" | "||" | "==" | "!=" | "<" | "<=" | ">" | ">="

/** A problem in an expression, at a 0-based offset inside it (the loader adds the file position). */
export class ExprError extends Error {
  constructor(message: string, readonly offset: number) {
    super(message)
    this.name = "ExprError"
  }
}

/** What an expression can see when it is evaluated. */
export interface Scope {
  /** resolve a reference (`inputs.x`, `steps.id.outputs.k`, `steps.id.outcome`); null when unset */
  ref(path: string[]): Value
  /** a step of this run has failed so far */
  failed: boolean
}

export function parseExpression(text: string): Expr {
  if (text.length > MAX_EXPRESSION_LENGTH) throw new ExprError(`expression is longer than ${MAX_EXPRESSION_LENGTH} characters`, 0)
  const tokens = tokenize(text)
  const parser = new Parser(tokens)
  const expr = parser.or(0)
  const rest = parser.peek()
  if (rest.type !== "end") throw new ExprError(`unexpected ${describe(rest)}`, rest.at)
  return expr
}

export function evaluate(expr: Expr, scope: Scope): Value {
  switch (expr.kind) {
    case "literal":
      return expr.value
    case "ref":
      return scope.ref(expr.path)
    case "call":
      return expr.name === "always" ? true : expr.name === "failure" ? scope.failed : !scope.failed
    case "not":
      return !truthy(evaluate(expr.operand, scope))
    case "binary": {
      if (expr.op === "&&") return truthy(evaluate(expr.left, scope)) && truthy(evaluate(expr.right, scope))
      if (expr.op === "||") return truthy(evaluate(expr.left, scope)) || truthy(evaluate(expr.right, scope))
      return compare(expr.op, evaluate(expr.left, scope), evaluate(expr.right, scope))
    }
  }
}

/** false, null, 0 and "" are false; everything else (including the string "false") is true. */
export function truthy(value: Value): boolean {
  return !(value === false || value === null || value === 0 || value === "" || Number.isNaN(value))
}

/** How a value reads when substituted into text. */
export function asText(value: Value): string {
  return value === null ? "" : String(value)
}

/** Every reference and status function in an expression, for load-time checks. */
export function walk(expr: Expr, visit: (node: Expr) => void): void {
  visit(expr)
  if (expr.kind === "not") walk(expr.operand, visit)
  if (expr.kind === "binary") {
    walk(expr.left, visit)
    walk(expr.right, visit)
  }
}

// Outputs are text: "3" > 2 compares as numbers when both sides read as numbers, else as strings.
function compare(op: BinaryOp, left: Value, right: Value): boolean {
  const a = asNumber(left)
  const b = asNumber(right)
  const numeric = a !== undefined && b !== undefined && (typeof left === "number" || typeof right === "number" || (typeof left === "string" && typeof right === "string" && isNumeric(left) && isNumeric(right)))
  const x: number | string = numeric ? a! : asText(left)
  const y: number | string = numeric ? b! : asText(right)
  switch (op) {
    case "==": return x === y
    case "!=": return x !== y
    case "<": return x < y
    case "<=": return x <= y
    case ">": return x > y
    default: return x >= y
  }
}

function isNumeric(s: string): boolean {
  return /^\s*-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/.test(s)
}

function asNumber(value: Value): number | undefined {
  if (typeof value === "number") return value
  if (typeof value === "boolean") return value ? 1 : 0
  if (typeof value === "string" && isNumeric(value)) return Number(value)
  return undefined
}

type Token =
  | { type: "op"; value: string; at: number }
  | { type: "string"; value: string; at: number }
  | { type: "number"; value: number; at: number }
  | { type: "word"; value: string; at: number }
  | { type: "end"; at: number }

const OPERATORS = ["&&", "||", "==", "!=", "<=", ">=", "<", ">", "!", "(", ")", "."]

function tokenize(text: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < text.length) {
    if (tokens.length > MAX_TOKENS) throw new ExprError(`expression has more than ${MAX_TOKENS} tokens`, i)
    const c = text[i]!
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      i++
      continue
    }
    if (c === "'" || c === '"') {
      // a quote is escaped by doubling it ('it''s'); no backslash escapes, no interpolation
      let value = ""
      let j = i + 1
      for (;;) {
        if (j >= text.length) throw new ExprError("unterminated string", i)
        if (text[j] === c) {
          if (text[j + 1] === c) {
            value += c
            j += 2
            continue
          }
          break
        }
        value += text[j]
        j++
      }
      tokens.push({ type: "string", value, at: i })
      i = j + 1
      continue
    }
    const number = /^-?(\d+(\.\d+)?|\.\d+)([eE][-+]?\d+)?/.exec(text.slice(i, i + 64))
    if (number && (c !== "-" || !endsOperand(tokens))) {
      tokens.push({ type: "number", value: Number(number[0]), at: i })
      i += number[0].length
      continue
    }
    const word = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(text.slice(i, i + 256))
    if (word) {
      tokens.push({ type: "word", value: word[0], at: i })
      i += word[0].length
      continue
    }
    const op = OPERATORS.find((o) => text.startsWith(o, i))
    if (op === undefined) throw new ExprError(`unexpected character '${c}'`, i)
    tokens.push({ type: "op", value: op, at: i })
    i += op.length
  }
  tokens.push({ type: "end", at: text.length })
  return tokens
}

// after a value, "-1" would be a subtraction, which the language does not have: read it as an error
function endsOperand(tokens: Token[]): boolean {
  const last = tokens.at(-1)
  return last !== undefined && (last.type !== "op" || last.value === ")")
}

function describe(token: Token): string {
  if (token.type === "end") return "end of expression"
  if (token.type === "string") return "string"
  return `'${token.value}'`
}

const COMPARISONS = new Set(["==", "!=", "<", "<=", ">", ">="])
const FUNCTIONS = new Set(["success", "failure", "always"])

class Parser {
  private pos = 0
  constructor(private readonly tokens: Token[]) {}

  peek(): Token {
    return this.tokens[this.pos]!
  }

  private next(): Token {
    return this.tokens[this.pos++]!
  }

  private isOp(value: string): boolean {
    const t = this.peek()
    return t.type === "op" && t.value === value
  }

  private deeper(depth: number, at: number): number {
    if (depth >= MAX_NESTING) throw new ExprError(`expression is nested deeper than ${MAX_NESTING} levels`, at)
    return depth + 1
  }

  or(depth: number): Expr {
    let left = this.and(depth)
    while (this.isOp("||")) {
      this.next()
      left = { kind: "binary", op: "||", left, right: this.and(depth) }
    }
    return left
  }

  private and(depth: number): Expr {
    let left = this.comparison(depth)
    while (this.isOp("&&")) {
      this.next()
      left = { kind: "binary", op: "&&", left, right: this.comparison(depth) }
    }
    return left
  }

  private comparison(depth: number): Expr {
    const left = this.unary(depth)
    const t = this.peek()
    if (t.type === "op" && COMPARISONS.has(t.value)) {
      this.next()
      const right = this.unary(depth)
      const after = this.peek()
      if (after.type === "op" && COMPARISONS.has(after.value)) throw new ExprError("comparisons do not chain; use && or parentheses", after.at)
      return { kind: "binary", op: t.value as BinaryOp, left, right }
    }
    return left
  }

  private unary(depth: number): Expr {
    if (this.isOp("!")) {
      const at = this.next().at
      return { kind: "not", operand: this.unary(this.deeper(depth, at)) }
    }
    return this.primary(depth)
  }

  private primary(depth: number): Expr {
    const t = this.next()
    if (t.type === "op" && t.value === "(") {
      const inner = this.or(this.deeper(depth, t.at))
      const close = this.next()
      if (close.type !== "op" || close.value !== ")") throw new ExprError(`expected ')' but found ${describe(close)}`, close.at)
      return inner
    }
    if (t.type === "string" || t.type === "number") return { kind: "literal", value: t.value }
    if (t.type !== "word") throw new ExprError(`expected a value but found ${describe(t)}`, t.at)
    if (t.value === "true" || t.value === "false") return { kind: "literal", value: t.value === "true" }
    if (t.value === "null") return { kind: "literal", value: null }
    if (this.isOp("(")) {
      if (!FUNCTIONS.has(t.value)) throw new ExprError(`unknown function '${t.value}' (known: success(), failure(), always())`, t.at)
      this.next()
      const close = this.next()
      if (close.type !== "op" || close.value !== ")") throw new ExprError(`${t.value}() takes no arguments`, close.at)
      return { kind: "call", name: t.value as "success", at: t.at }
    }
    const path = [t.value]
    while (this.isOp(".")) {
      this.next()
      const part = this.next()
      // a step id may start with a digit: `steps.2nd.outcome`
      if (part.type === "word") path.push(part.value)
      else if (part.type === "number" && Number.isInteger(part.value) && part.value >= 0) path.push(String(part.value))
      else throw new ExprError(`expected a name after '.' but found ${describe(part)}`, part.at)
    }
    return { kind: "ref", path, at: t.at }
  }
}
