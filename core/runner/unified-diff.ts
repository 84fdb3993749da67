// A unified diff of two texts, for showing a person what a write or edit would change.
// Pure: no fs. Common head and tail are trimmed first (edits are local); the middle is diffed by LCS
// when small enough, else shown as removed-then-added (never slow on a big file).

const CONTEXT = 3
const MAX_LCS_CELLS = 2_000_000

type Op = { kind: " " | "-" | "+"; text: string; a: number; b: number }

export function unifiedDiff(before: string, after: string, path: string, created = false): string {
  if (before === after) return ""
  const a = splitLines(before)
  const b = splitLines(after)
  const ops = diffLines(a, b)
  const header = `--- ${created ? "/dev/null" : `a/${path}`}\n+++ b/${path}\n`
  return header + hunks(ops).join("")
}

function splitLines(text: string): string[] {
  if (text === "") return []
  const lines = text.split("\n")
  if (lines[lines.length - 1] === "") lines.pop()
  return lines
}

function diffLines(a: string[], b: string[]): Op[] {
  let head = 0
  while (head < a.length && head < b.length && a[head] === b[head]) head++
  let tail = 0
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++
  const ops: Op[] = []
  for (let i = 0; i < head; i++) ops.push({ kind: " ", text: a[i]!, a: i, b: i })
  const midA = a.slice(head, a.length - tail)
  const midB = b.slice(head, b.length - tail)
  for (const op of middle(midA, midB)) ops.push({ ...op, a: op.a + head, b: op.b + head })
  for (let i = tail; i > 0; i--) ops.push({ kind: " ", text: a[a.length - i]!, a: a.length - i, b: b.length - i })
  return ops
}

function middle(a: string[], b: string[]): Op[] {
  if (a.length * b.length > MAX_LCS_CELLS) {
    return [...a.map((text, i) => ({ kind: "-" as const, text, a: i, b: 0 })), ...b.map((text, j) => ({ kind: "+" as const, text, a: a.length, b: j }))]
  }
  // lengths of the longest common subsequence of a[i..] and b[j..]
  const width = b.length + 1
  const lcs = new Uint32Array((a.length + 1) * width)
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i] === b[j] ? lcs[(i + 1) * width + j + 1]! + 1 : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!)
    }
  }
  const ops: Op[] = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) ops.push({ kind: " ", text: a[i]!, a: i++, b: j++ })
    // removals before additions, as diff -u shows a changed line
    else if (i < a.length && (j === b.length || lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!)) ops.push({ kind: "-", text: a[i]!, a: i++, b: j })
    else ops.push({ kind: "+", text: b[j]!, a: i, b: j++ })
  }
  return ops
}

function hunks(ops: Op[]): string[] {
  const out: string[] = []
  let i = 0
  while (i < ops.length) {
    while (i < ops.length && ops[i]!.kind === " ") i++
    if (i >= ops.length) break
    const start = Math.max(0, i - CONTEXT)
    let end = i
    // extend while the next change is within two contexts of this one
    for (let k = i; k < ops.length; k++) {
      if (ops[k]!.kind !== " ") end = k
      else if (k - end > CONTEXT * 2) break
    }
    const stop = Math.min(ops.length, end + CONTEXT + 1)
    const slice = ops.slice(start, stop)
    const oldCount = slice.filter((o) => o.kind !== "+").length
    const newCount = slice.filter((o) => o.kind !== "-").length
    const first = slice[0]!
    const oldStart = oldCount ? first.a + 1 : first.a
    const newStart = newCount ? first.b + 1 : first.b
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@\n`)
    for (const o of slice) out.push(`${o.kind}${o.text}\n`)
    i = stop
  }
  return out
}
