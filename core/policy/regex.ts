// User regexes in policies: compile them and refuse shapes that backtrack catastrophically.
// Pure. (core/redact may later export the same check; this one has no dependencies.)

/** A problem description when the regex is invalid or may backtrack catastrophically, else undefined. */
export function checkRegexSafety(source: string): string | undefined {
  try {
    new RegExp(source)
  } catch (err) {
    return `invalid regular expression: ${(err as Error).message.replace(/^Invalid regular expression: /, "")}`
  }
  if (/\\[1-9]|\\k</.test(source)) return "back-references are not allowed (they can make matching exponential)"
  return nestedQuantifier(source)
}

interface Group {
  repeats: boolean
  start: number
}

// A group holding a variable repetition that is itself repeated (`(a+)+`, `(\w*)*`, `(x{1,9})+`)
// explodes on near-misses. Conservative: a separator inside (`(a+b)+`) is refused too; fixed counts
// (`{3}`) and `?` are harmless.
function nestedQuantifier(source: string): string | undefined {
  const stack: Group[] = [{ repeats: false, start: 0 }]
  let i = 0
  while (i < source.length) {
    const ch = source[i]!
    if (ch === "(") {
      stack.push({ repeats: false, start: i })
      i++
      continue
    }
    if (ch === ")" && stack.length > 1) {
      const group = stack.pop()!
      const q = quantifierAt(source, i + 1)
      if (q.variable && group.repeats) {
        return `nested quantifier at offset ${group.start} ("${source.slice(group.start, i + 1 + q.length)}") can backtrack catastrophically; remove the inner or outer repetition`
      }
      if (group.repeats || q.variable) stack[stack.length - 1]!.repeats = true
      i += 1 + q.length
      continue
    }
    // an atom: an escape, a character class or a single character, then its quantifier
    const end = ch === "\\" ? i + 2 : ch === "[" ? skipClass(source, i) : i + 1
    const q = quantifierAt(source, end)
    if (q.variable) stack[stack.length - 1]!.repeats = true
    i = end + q.length
  }
  return undefined
}

function quantifierAt(source: string, i: number): { variable: boolean; length: number } {
  const ch = source[i]
  let length = 0
  let variable = false
  if (ch === "*" || ch === "+") {
    variable = true
    length = 1
  } else if (ch === "?") length = 1
  else if (ch === "{") {
    const m = /^\{(\d*)(,(\d*))?\}/.exec(source.slice(i))
    if (m) {
      length = m[0].length
      variable = m[2] !== undefined && (m[3] === "" || Number(m[3]) > Number(m[1] || 0))
    }
  }
  if (length && source[i + length] === "?") length++ // lazy
  return { variable, length }
}

function skipClass(source: string, i: number): number {
  let j = i + 1
  if (source[j] === "^") j++
  if (source[j] === "]") j++
  while (j < source.length && source[j] !== "]") j += source[j] === "\\" ? 2 : 1
  return j + 1
}
