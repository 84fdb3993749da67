// YAML with positions: parse a file, validate with zod, and turn every problem into file:line:col.
// Shared by the task and policy loaders. Reads nothing itself beyond the text it is given.
import { isDocument, LineCounter, parseDocument, type Document } from "yaml"
import type { z } from "zod"

/** A configuration problem the user must fix; exit code 2. */
export class ConfigError extends Error {
  /** bad input: exit code 2 (a property, since minified builds rename classes) */
  readonly exitCode = 2
  override name = "ConfigError"
  constructor(
    readonly file: string,
    readonly line: number,
    readonly col: number,
    readonly problem: string,
  ) {
    super(`${file}:${line}:${col}: ${problem}`)
  }
}

export interface YamlSource {
  file: string
  doc: Document
  lines: LineCounter
}

/** Parse YAML text; syntax errors become a ConfigError at their position. */
export function parseYaml(text: string, file: string): YamlSource {
  const lines = new LineCounter()
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true })
  const first = doc.errors[0]
  if (first) {
    const pos = lines.linePos(first.pos[0])
    throw new ConfigError(file, pos.line, pos.col, `invalid YAML: ${first.message.split("\n")[0]}`)
  }
  if (!isDocument(doc)) throw new ConfigError(file, 1, 1, "invalid YAML document")
  return { file, doc, lines }
}

/** line:col of the node at `path` (or of its nearest existing ancestor); 1:1 when unknown. */
export function positionOf(src: YamlSource, path: readonly PropertyKey[]): { line: number; col: number } {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = src.doc.getIn(path.slice(0, depth) as unknown[], true) as { range?: [number, number, number] } | undefined
    const keyNode = depth > 0 ? keyNodeAt(src, path.slice(0, depth)) : undefined
    const range = keyNode?.range ?? node?.range
    if (range) return src.lines.linePos(range[0])
  }
  return { line: 1, col: 1 }
}

// For "unknown key" problems the key itself is the useful position, not its value.
function keyNodeAt(src: YamlSource, path: readonly PropertyKey[]): { range?: [number, number, number] } | undefined {
  const parent = src.doc.getIn(path.slice(0, -1) as unknown[], true) as { items?: { key?: unknown }[] } | undefined
  const last = path[path.length - 1]
  const pair = parent?.items?.find((item) => {
    const key = item.key as { value?: unknown } | undefined
    return key && typeof key === "object" && key.value === last
  })
  return pair?.key as { range?: [number, number, number] } | undefined
}

/** Validate a YAML document (or a sub-tree at `prefix`) with zod; the first problem becomes a ConfigError. */
export function validateYaml<T extends z.ZodType>(
  src: YamlSource,
  schema: T,
  prefix: readonly PropertyKey[] = [],
): z.infer<T> {
  const raw = prefix.length ? src.doc.getIn(prefix as unknown[]) : src.doc.toJS()
  const value = raw && typeof raw === "object" && "toJSON" in raw ? (raw as { toJSON(): unknown }).toJSON() : raw
  const result = schema.safeParse(value ?? {})
  if (result.success) return result.data
  // an unknown key explains a "missing" one next to it (a typo), so report it first
  const issues = result.error.issues
  const issue = issues.find((i) => i.code === "unrecognized_keys") ?? issues[0]!
  const path = [...prefix, ...issue.path]
  const keys = issue.code === "unrecognized_keys" ? issue.keys : []
  const at = keys.length ? positionOf(src, [...path, keys[0]!]) : positionOf(src, path)
  throw new ConfigError(src.file, at.line, at.col, describeIssue(issue, path))
}

function describeIssue(issue: z.core.$ZodIssue, path: readonly PropertyKey[]): string {
  const where = path.length ? path.map(String).join(".") : "document"
  if (issue.code === "unrecognized_keys") {
    return `unknown key ${issue.keys.map((k) => `"${k}"`).join(", ")} in ${where}`
  }
  if (issue.code === "invalid_value" && "values" in issue) {
    return `${where}: expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`
  }
  return `${where}: ${issue.message}`
}
