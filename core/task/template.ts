// `${{ expression }}` in a step's text fields: found and parsed at load (every problem is a load
// error), substituted just before the step's call is decided, so the policy judges exactly what runs.
// Pure.
import { asText, evaluate, ExprError, parseExpression, type Expr, type Scope } from "./expr.ts"

export interface Template {
  expr: Expr
  /** offsets of `${{` and just past `}}` in the text */
  start: number
  end: number
}

const OPEN = "${{"
const CLOSE = "}}"

/** The templates in a text, parsed; throws ExprError with the offset in the text. */
export function templatesIn(text: string): Template[] {
  const found: Template[] = []
  let from = 0
  for (;;) {
    const start = text.indexOf(OPEN, from)
    if (start < 0) return found
    const end = text.indexOf(CLOSE, start + OPEN.length)
    if (end < 0) throw new ExprError("`${{` without a closing `}}`", start)
    const inner = text.slice(start + OPEN.length, end)
    try {
      found.push({ expr: parseExpression(inner), start, end: end + CLOSE.length })
    } catch (error) {
      if (error instanceof ExprError) throw new ExprError(error.message, start + OPEN.length + error.offset)
      throw error
    }
    from = end + CLOSE.length
  }
}

/** The text with every template replaced by its value (null reads as ""). */
export function substitute(text: string, scope: Scope): string {
  if (!text.includes(OPEN)) return text
  let out = ""
  let at = 0
  for (const t of templatesIn(text)) {
    out += text.slice(at, t.start) + asText(evaluate(t.expr, scope))
    at = t.end
  }
  return out + text.slice(at)
}

/** Every string inside JSON-like data substituted (keys are left as they are). */
export function substituteDeep<T>(value: T, scope: Scope): T {
  if (typeof value === "string") return substitute(value, scope) as T
  if (Array.isArray(value)) return value.map((v) => substituteDeep(v, scope)) as T
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteDeep(v, scope)])) as T
  }
  return value
}

/** Every string inside JSON-like data with where it sits, for load-time checks. */
export function stringsIn(value: unknown, path: PropertyKey[] = []): { text: string; path: PropertyKey[] }[] {
  if (typeof value === "string") return [{ text: value, path }]
  if (Array.isArray(value)) return value.flatMap((v, i) => stringsIn(v, [...path, i]))
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => stringsIn(v, [...path, k]))
  return []
}
